package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"
)

// Listener wraps a listener so that the answers net/http writes by
// itself, before any handler runs, are error objects like every other
// error of the API instead of plain text: 400 for a request that is not
// HTTP/1.1 (a malformed request line, a missing Host header), 431 for
// headers over MaxHeaderBytes, 417 for an Expect header other than
// 100-continue, 501 for a transfer encoding it does not know, 505 for an
// HTTP version it does not speak. kokua-run serve serves through it; a
// host that serves Handler with its own http.Server can do the same.
//
// A request that never ends (its headers not done within
// ReadHeaderTimeout) and a TLS handshake are not answered: net/http
// closes the connection without a word.
func Listener(ln net.Listener) net.Listener { return jsonErrorsListener{ln} }

type jsonErrorsListener struct{ net.Listener }

func (l jsonErrorsListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &jsonErrorsConn{Conn: c}, nil
}

// jsonErrorsConn rewrites net/http's own error answers as they are
// written. net/http writes each of them whole, in one Write, as the status
// line, exactly plainErrorHeaders and a text body; no answer of a handler
// starts that way, since net/http writes a handler's headers sorted, with
// Connection before Content-Type.
type jsonErrorsConn struct{ net.Conn }

const plainErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

func (c *jsonErrorsConn) Write(b []byte) (int, error) {
	answer, ok := rewritePlainError(b)
	if !ok {
		answer, ok = rewriteExpectationFailed(b)
	}
	if ok {
		if _, err := c.Conn.Write(answer); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	return c.Conn.Write(b)
}

// CloseWrite lets net/http half-close the connection after a 431, as it
// does with the connection it would otherwise hold.
func (c *jsonErrorsConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// rawErrorCodes are the codes of the answers net/http writes by itself.
var rawErrorCodes = map[int]string{
	400: "malformed_request",
	417: "expectation_failed",
	431: "headers_too_large",
	501: "unsupported_transfer_encoding",
	505: "http_version_not_supported",
}

// rewritePlainError turns one of net/http's plain-text error answers into
// the API's error object, or reports that b is not one.
func rewritePlainError(b []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(b, []byte("HTTP/1.1 "))
	if !ok {
		return nil, false
	}
	statusLine, _, ok := bytes.Cut(rest, []byte(plainErrorHeaders))
	if !ok || bytes.Contains(statusLine, []byte("\r\n")) || len(statusLine) < 4 || statusLine[3] != ' ' {
		return nil, false
	}
	status, err := strconv.Atoi(string(statusLine[:3]))
	if err != nil || status < 400 || status > 599 {
		return nil, false
	}
	code, known := rawErrorCodes[status]
	if !known {
		code = "http_error"
	}
	// net/http puts a 400's detail after the reason phrase: "400 Bad
	// Request: missing required Host header".
	reason, detail, _ := bytes.Cut(statusLine[4:], []byte(": "))
	var message string
	switch status {
	case 431:
		message = fmt.Sprintf("the request's headers are larger than the limit of %d bytes", MaxHeaderBytes)
	case 501:
		message = "the request's Transfer-Encoding is not one this server reads"
	case 505:
		message = "the request's HTTP version is not one this server reads: use HTTP/1.1"
	default:
		message = "the request is not valid HTTP/1.1"
		if len(detail) > 0 {
			message += ": " + string(detail)
		}
	}
	return rawError("HTTP/1.1", statusLine[:4+len(reason)], code, message)
}

// expectationFailed is the answer net/http writes by itself, through the
// response and with an empty body, to a request whose Expect header is
// not 100-continue. No handler of the API answers 417.
var expectationFailed = regexp.MustCompile(`^(HTTP/1\.[01]) (417 Expectation Failed)\r\n(?:[!-9;-~]+: [^\r\n]*\r\n)*\r\n$`)

// rewriteExpectationFailed turns net/http's 417 answer into the API's
// error object, or reports that b is not one.
func rewriteExpectationFailed(b []byte) ([]byte, bool) {
	m := expectationFailed.FindSubmatch(b)
	if m == nil || !bytes.Contains(b, []byte("\r\nContent-Length: 0\r\n")) {
		return nil, false
	}
	return rawError(string(m[1]), m[2], rawErrorCodes[http.StatusExpectationFailed],
		"the request's Expect header asks for something other than 100-continue, which this server does not do")
}

// rawError is an error object answered on a connection that is closed
// after it, as net/http closes it after its own error answers.
func rawError(proto string, status []byte, code, message string) ([]byte, bool) {
	n, err := strconv.Atoi(string(status[:3]))
	if err != nil {
		return nil, false
	}
	js, err := json.Marshal(errorBody{errorDetail{n, code, message}})
	if err != nil {
		return nil, false
	}
	js = append(js, '\n')
	var out bytes.Buffer
	fmt.Fprintf(&out, "%s %s\r\nCache-Control: no-store\r\nConnection: close\r\nContent-Length: %d\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\n\r\n",
		proto, status, len(js))
	out.Write(js)
	return out.Bytes(), true
}
