# mm — build, test, benchmark. `make help` lists the targets.

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X mm/internal/version.Version=$(VERSION)
GO      ?= go

.PHONY: help build install run test test-deps vet fmt-check cross dist bench llmtest real-server clean

help:
	@echo "make build     build ./mm"
	@echo "make install   install mm into \$$(go env GOPATH)/bin"
	@echo "make run       build and start mm (ARGS='-p \"…\"' for one prompt)"
	@echo "make test      vet, format check and every test; the last line counts them, and the skipped ones that need make test-deps"
	@echo "make test-deps install what some tests need into .ci/ (language servers, the Node ACP SDK, MCP servers, a real llama.cpp server)"
	@echo "make cross     for each release target: build ./cmd/mm, go vet ./..., compile every package's tests"
	@echo "make dist      the release binaries of every target into dist/, with SHA256SUMS"
	@echo "make bench     benchmarks (figures go to docs/benchmarks.md by hand)"
	@echo "make real-server  a real llama.cpp server on SmolLM2-135M on 127.0.0.1:8080 (installs it into .ci/real first; PORT=, CTX= to change)"
	@echo "make llmtest   the scripted model server (demo model) in this terminal; ARGS=-background to run it behind, go run ./cmd/llmtest -stop to stop it"

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o mm ./cmd/mm

install:
	$(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/mm

run: build
	./mm $(ARGS)

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# go test -json through internal/testsum (built, not go run: that would
# add its own "exit status 1" after the closing line): plain go test's
# output, then one line that counts the tests (and the skips for want of
# make test-deps); the exit code is go test's.
test: vet fmt-check
	@$(GO) build -o bin/testsum ./internal/testsum
	@bin/testsum -go '$(GO)' -count=1 -parallel 4 -timeout 8m ./...

# What the tests that skip without it need; .ci/run calls the same script.
test-deps:
	.ci/deps

# The release targets: CI builds, vets and compiles the tests of each.
TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64

# cross: a break on any target fails. go vet type-checks the test files
# too; go test -run '^$$' -exec true links each package's test binary
# without running it (the -exec program gets the binary and succeeds).
cross:
	@set -e; for t in $(TARGETS); do \
		echo "cross $$t"; \
		GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) build -trimpath -o /dev/null ./cmd/mm; \
		GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) vet ./...; \
		GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) test -count=1 -run '^$$' -exec /bin/true ./... >/dev/null; \
	done

dist:
	@rm -rf dist && mkdir -p dist
	@set -e; for t in $(TARGETS); do \
		os=$${t%/*}; arch=$${t#*/}; ext=; [ $$os = windows ] && ext=.exe; \
		echo "dist/mm-$$os-$$arch$$ext"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/mm-$$os-$$arch$$ext ./cmd/mm; \
	done
	@cd dist && sha256sum mm-* > SHA256SUMS && cat SHA256SUMS

bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 -timeout 20m ./...

llmtest:
	$(GO) run ./cmd/llmtest -demo $(ARGS)

PORT ?= 8080
CTX  ?= 4096
real-server:
	@.ci/real-install
	@echo "endpoint: AGENT_PROVIDER=llamacpp AGENT_BASE_URL=http://127.0.0.1:$(PORT)/v1 ./mm"
	.ci/real/venv/bin/python internal/realtest/serve.py --host 127.0.0.1 --port $(PORT) --ctx $(CTX) 2>/tmp/mm-real-server-$(PORT).log

clean:
	rm -f mm llmtest bin/testsum
