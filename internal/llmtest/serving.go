package llmtest

import (
	"fmt"
	"io"
	"net/http"
	"time"
)

// What a real server does around the model itself: a model that is still
// loading, a proxy in front of the server, a server that lists several
// models.

// DefaultNCtx is the context window the server reports unless told
// otherwise: a real coding model's, not the 2048 of the captures' tiny
// model. mm refuses a conversation clearly over the window before sending
// it, and its tests hold conversations (tool definitions, 16k-character
// tool results) that a 2048-token window could never take.
const DefaultNCtx = 32768

// FaultHTTP502HTML answers with the HTML page a reverse proxy (nginx) sends
// when the model server behind it is down.
const FaultHTTP502HTML Fault = "http-502-html"

// proxyPage is nginx's own 502 page, byte for byte.
const proxyPage = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n"

func writeProxyPage(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Server", "nginx/1.24.0")
	h.Set("Content-Type", "text/html")
	h.Set("Content-Length", fmt.Sprint(len(proxyPage)))
	h.Set("Connection", "keep-alive")
	w.WriteHeader(http.StatusBadGateway)
	_, _ = io.WriteString(w, proxyPage)
}

// whileLoading answers every request with llama-server's 503 while the
// server "loads its model" (Options.Loading): the g10_chat_while_loading
// capture, which g6b_health_loading shows /health sends too. A chat request
// answered so consumes no turn, as the model never saw it.
func (s *Server) whileLoading(w http.ResponseWriter, r *http.Request) (string, bool) {
	s.mu.Lock()
	loading := s.loaded < s.opts.Loading
	if loading && r.Method == http.MethodPost && isChatPath(r.URL.Path) {
		s.loaded++
	}
	s.mu.Unlock()
	if !loading {
		return "", false
	}
	writeJSONError(w, http.StatusServiceUnavailable, string(Fixture("g10_chat_while_loading.json")))
	return "(loading)", true
}

// moreModels is the data[] entries of Options.Models, each with a leading
// comma: what a server that serves several models (Ollama, Docker Model
// Runner, llama-server's router mode) adds to its list.
func (s *Server) moreModels(ownedBy string) []byte {
	var b []byte
	for _, m := range s.opts.Models {
		b = fmt.Appendf(b, `,{"id":%s,"object":"model","created":%d,"owned_by":%s}`, jsonString(m), time.Now().Unix(), jsonString(ownedBy))
	}
	return b
}
