package resolvers

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
)

// directPOST is gqlgen's POST transport with one change: an answer with data
// and nothing else is written as {"data":…} around the executor's data,
// HTML-escaped, the bytes transport.POST writes. transport.POST marshals
// every answer with encoding/json, which parses the data again to compact
// it: a quarter of a standing's CPU, for data the executor wrote compact.
// Requests it does not take the short way (a response type other than
// application/json, a body that is not JSON) go to transport.POST as they
// came.
type directPOST struct{ transport.POST }

// Do answers one GraphQL request.
func (t directPOST) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	if !answersApplicationJSON(r.Header.Get("Accept")) {
		t.POST.Do(w, r, exec)
		return
	}
	body, readErr := io.ReadAll(r.Body)
	params := &graphql.RawParams{}
	if readErr != nil || decodeParams(body, params) != nil {
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), failingReader{readErr}))
		t.POST.Do(w, r, exec)
		return
	}
	params.Headers = r.Header
	w.Header().Set("Content-Type", "application/json")
	ctx := r.Context()
	rc, opErr := exec.CreateOperationContext(ctx, params)
	if opErr != nil {
		if errcode.GetErrorKind(opErr) == errcode.KindProtocol {
			w.WriteHeader(http.StatusUnprocessableEntity)
		}
		writeResponse(w, exec.DispatchError(graphql.WithOperationContext(ctx, rc), opErr))
		return
	}
	responses, ctx := exec.DispatchOperation(ctx, rc)
	writeResponse(w, responses(ctx))
}

// answersApplicationJSON reports whether transport.POST would answer a
// request with this Accept header as application/json: no header, or a
// first media type it knows that is not application/graphql-response+json.
func answersApplicationJSON(accept string) bool {
	if accept == "" {
		return true
	}
	for part := range strings.SplitSeq(accept, ",") {
		mediaType, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mediaType {
		case "*/*", "application/*", "application/json":
			return true
		case "application/graphql-response+json":
			return false
		}
	}
	return false
}

// decodeParams reads a request body as transport.POST does.
func decodeParams(body []byte, params *graphql.RawParams) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	return dec.Decode(params)
}

// writeResponse writes resp as transport.POST does: directly when it holds
// data alone, else marshalled.
func writeResponse(w io.Writer, resp *graphql.Response) {
	if resp == nil {
		// The executor answers nothing once the request's context ended
		// (the client left): transport.POST writes that as JSON null.
		_, _ = io.WriteString(w, "null")
		return
	}
	if len(resp.Errors) == 0 && len(resp.Extensions) == 0 && resp.Label == "" && resp.Path == nil && resp.HasNext == nil {
		data := resp.Data
		if data == nil {
			data = json.RawMessage("null")
		}
		out := answers.Get().(*bytes.Buffer)
		defer answers.Put(out)
		out.Reset()
		out.Grow(len(data) + len(`{"data":}`) + 64)
		out.WriteString(`{"data":`)
		if needsHTMLEscape(data) {
			json.HTMLEscape(out, data)
		} else {
			out.Write(data)
		}
		out.WriteByte('}')
		_, _ = w.Write(out.Bytes())
		if out.Cap() > maxPooledAnswer {
			*out = bytes.Buffer{} // not kept: one large answer would hold its memory for good
		}
		return
	}
	out, err := json.Marshal(resp)
	if err != nil {
		// As transport.POST does: gqlgen's handler recovers the panic, and
		// recoverPanic logs it and answers INTERNAL.
		panic("marshal a GraphQL response: " + err.Error())
	}
	_, _ = w.Write(out)
}

// needsHTMLEscape reports whether json.HTMLEscape would change data: it
// escapes <, > and &, and U+2028 and U+2029, whose UTF-8 starts with 0xE2.
// Most answers hold none of them, and IndexByte finds that far faster than
// HTMLEscape's walk through every byte.
func needsHTMLEscape(data []byte) bool {
	for _, c := range []byte("<>&\xe2") {
		if bytes.IndexByte(data, c) >= 0 {
			return true
		}
	}
	return false
}

// answers are the buffers plain answers are written into: a friends board
// of 1,000 is some 100 KB, allocated and cleared once per request otherwise.
var answers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledAnswer is the largest buffer answers keeps.
const maxPooledAnswer = 256 << 10

// failingReader fails every read with err, io.EOF when err is nil: the end of
// a body read again that failed, or ended, the first time.
type failingReader struct{ err error }

func (f failingReader) Read([]byte) (int, error) {
	if f.err == nil {
		return 0, io.EOF
	}
	return 0, f.err
}
