package toolcall

import (
	"fmt"
	"os"
	"testing"
)

func TestZZTry(t *testing.T) {
	r := Recover(Input{Content: os.Getenv("ZZ_TEXT"), FinishReason: "stop", Tools: toolsFor(t, "bash", "read_file", "write_file", "edit_file", "lsp", "fetch_content")})
	fmt.Printf("calls=%v rej=%+v\ntext=%q\n", r.Calls, r.Rejections, r.Text)
}
