package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/kokua-policy/kokua-policy/lint"
)

// maxFrame is the largest message body the server reads: a didOpen or a
// whole-text didChange of a document at the cap (lint.MaxInputBytes).
// JSON escapes a byte of text into at most six (a control character as
// \u001f; a character of two, three or four UTF-8 bytes as one \uXXXX or
// a surrogate pair, at most three bytes a byte), and the rest of the
// message (the method, the URI, the version, the language ID) fits in
// the 1 MiB of slack. A document over the cap is still read, to be
// answered with its one diagnostic; a body larger than any such message
// is refused before it is read.
const maxFrame = 6*lint.MaxInputBytes + 1<<20

// maxHeaderLines bounds the header lines of one frame; a header line
// longer than the reader's buffer (4 KiB) is refused as well. The
// protocol's header has two lines (Content-Length and Content-Type).
const maxHeaderLines = 32

// frames is the server's stream of messages: the protocol's
// Content-Length framing, read tolerantly. It answers a frame whose body is not
// a JSON-RPC message with an error (-32700 for a body that is not JSON,
// -32600 for JSON that is not a request object) and reads on, and drops
// a frame it cannot delimit (no usable Content-Length, a header line
// without a colon or too long) with a line in the log, then reads on
// from the next "Content-Length:" in the stream. A Content-Length over
// the cap is answered with -32600 without reading the body, and the
// stream is read on in the same way. Header lines may end in "\n" as well
// as "\r\n", header names are read in any case, and blank lines between
// frames are skipped.
type frames struct {
	conn io.ReadWriteCloser
	in   *bufio.Reader
	// limit is the largest body read (maxFrame; the fuzz test's is
	// smaller).
	limit int64
	// log reports a frame answered with an error or dropped.
	log func(string)
	// lost is set after a frame that could not be delimited: the next
	// frame starts at the next "Content-Length:".
	lost bool
	// mu orders writes: the connection's messages and the answers to
	// malformed frames, which the reading goroutine writes.
	mu sync.Mutex
}

func newFrames(conn io.ReadWriteCloser, limit int64) *frames {
	return &frames{conn: conn, in: bufio.NewReader(conn), limit: limit, log: func(string) {}}
}

// frameError is a frame the stream cannot delimit, and why.
type frameError string

func (e frameError) Error() string { return string(e) }

// Read returns the next message, answering or dropping every malformed
// frame before it. Its only errors are the stream's own (its end).
func (f *frames) Read(ctx context.Context) (*message, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if f.lost {
			if err := f.seek(); err != nil {
				return nil, err
			}
		}
		length, err := f.header(f.lost)
		f.lost = false
		var bad frameError
		switch {
		case errors.As(err, &bad):
			f.log(fmt.Sprintf("dropped a frame that cannot be delimited: %s; reading on from the next Content-Length header", bad))
			f.lost = true
			continue
		case err != nil:
			return nil, err
		case length > f.limit:
			f.answer(nil, newError(codeInvalidRequest, fmt.Sprintf(
				"the message's Content-Length is %d bytes, over the %d the server reads (a config of %d MiB, JSON-escaped, and 1 MiB): it is not read, and reading goes on from the next Content-Length header",
				length, f.limit, lint.MaxInputBytes>>20)))
			f.lost = true
			continue
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(f.in, body); err != nil {
			return nil, err
		}
		msg, rpcErr := decodeMessage(body)
		if rpcErr != nil {
			f.answer(idOf(body), rpcErr)
			continue
		}
		return msg, nil
	}
}

// header reads a frame's header and returns its Content-Length. After
// seek, the header's first line has lost its "Content-Length:".
func (f *frames) header(resynced bool) (int64, error) {
	length := int64(-1)
	lines := 0
	for {
		line, err := f.line()
		if resynced && lines == 0 {
			line = "Content-Length:" + line
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			return 0, frameError(fmt.Sprintf("a header line is longer than %d bytes", f.in.Size()))
		case err != nil:
			return 0, err
		}
		if strings.Trim(line, " \t\r") == "" {
			if lines == 0 {
				continue // a blank line between frames
			}
			break
		}
		if lines++; lines > maxHeaderLines {
			return 0, frameError(fmt.Sprintf("the header has more than %d lines", maxHeaderLines))
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return 0, frameError(fmt.Sprintf("the header line %s has no colon", quote(line)))
		}
		if !strings.EqualFold(strings.Trim(name, " \t"), "Content-Length") {
			continue // Content-Type, or a header the protocol does not have
		}
		v, err := contentLength(strings.Trim(value, " \t\r"))
		if err != nil {
			return 0, err
		}
		if length >= 0 && v != length {
			return 0, frameError(fmt.Sprintf("two Content-Length headers disagree (%d and %d)", length, v))
		}
		length = v
	}
	if length < 0 {
		return 0, frameError("the header has no Content-Length")
	}
	return length, nil
}

// contentLength reads a Content-Length value: decimal digits. A number too
// large for an int64 is over any cap, and read as the largest.
func contentLength(value string) (int64, error) {
	if value == "" || strings.Trim(value, "0123456789") != "" {
		return 0, frameError(fmt.Sprintf("Content-Length %s is not a number of bytes", quote(value)))
	}
	v, err := strconv.ParseInt(value, 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 1<<63 - 1, nil
	}
	return v, err
}

// line reads a header line, without its "\n" and the "\r" before it.
func (f *frames) line() (string, error) {
	b, err := f.in.ReadSlice('\n')
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r"), nil
}

// seek reads up to and through the next "Content-Length:", in any case,
// where the next frame starts as far as can be told.
func (f *frames) seek() error {
	const key = "content-length:" // its first byte occurs once in it
	matched := 0
	for matched < len(key) {
		c, err := f.in.ReadByte()
		if err != nil {
			return err
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		switch c {
		case key[matched]:
			matched++
		case key[0]:
			matched = 1
		default:
			matched = 0
		}
	}
	return nil
}

// quote writes a piece of a header for the log: quoted, so that no
// control character reaches a terminal, and cut short.
func quote(s string) string {
	const most = 64
	if len(s) > most {
		return strconv.Quote(s[:most]) + "..."
	}
	return strconv.Quote(s)
}

// decodeMessage reads a frame's body as a JSON-RPC message, or returns
// the error to answer it with.
func decodeMessage(body []byte) (*message, *rpcError) {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	switch {
	case len(trimmed) == 0:
		return nil, newError(codeParseError, "the message is empty")
	case !json.Valid(body):
		return nil, newError(codeParseError, "the message is not JSON")
	case trimmed[0] != '{':
		return nil, newError(codeInvalidRequest, "the message is not a JSON object (a request, a notification or a response)")
	}
	msg, err := parseMessage(body)
	if err != nil {
		// The decoder's error quotes the message; the answer does not
		// repeat the client's bytes into the log.
		return nil, newError(codeInvalidRequest, "the message is not a JSON-RPC 2.0 request, notification or response (a member is missing or of the wrong type, or jsonrpc is not \"2.0\")")
	}
	return msg, nil
}

// idOf is the id of a message that could not be decoded, when it
// has one of the kinds an id can be (a number or a string): the client
// waiting for an answer to it then gets one. It is nil (null) otherwise.
func idOf(body []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	if c := m.ID[0]; c == '"' || c == '-' || '0' <= c && c <= '9' {
		return m.ID
	}
	return nil
}

// answer writes an error response to a frame that is not a message, and
// logs it.
func (f *frames) answer(id json.RawMessage, e *rpcError) {
	f.log(fmt.Sprintf("answered a malformed message with error %d: %s", e.Code, e.Message))
	if id == nil {
		id = json.RawMessage("null")
	}
	data, err := marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *rpcError       `json:"error"`
	}{"2.0", id, e})
	if err == nil {
		_ = f.send(data)
	}
}

// send writes one message's JSON as a frame.
func (f *frames) send(data []byte) error {
	frame := fmt.Appendf(nil, "Content-Length: %d\r\n\r\n", len(data))
	frame = append(frame, data...)
	f.mu.Lock()
	defer f.mu.Unlock()
	_, err := f.conn.Write(frame)
	return err
}

// marshal encodes v as JSON, leaving <, > and & as they are.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Close closes the stream.
func (f *frames) Close() error { return f.conn.Close() }
