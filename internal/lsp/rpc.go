package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// The JSON-RPC 2.0 layer: messages as they are on the wire, and the
// connection that reads them from frames, hands each request and
// notification to the server in turn, and writes the answers and the
// server's notifications. The server never calls the client, so a
// response from the client is read and dropped.

// Error codes of JSON-RPC and of the protocol.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeServerNotInitialized = -32002
)

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int32            `json:"code"`
	Message string           `json:"message"`
	Data    *json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return e.Message }

func newError(code int32, message string) *rpcError {
	return &rpcError{Code: code, Message: message}
}

// The errors of a request the server cannot take.
var (
	errMethodNotFound = newError(codeMethodNotFound, "JSON-RPC method not found")
	errInvalidParams  = newError(codeInvalidParams, "JSON-RPC invalid params")
)

// requestID is a request's id: an integer (the protocol's, 32 bits) or a
// string. An answer carries it back as it was read.
type requestID struct {
	name     string
	number   int32
	isString bool
}

func (id requestID) MarshalJSON() ([]byte, error) {
	if id.isString {
		return json.Marshal(id.name)
	}
	return json.Marshal(id.number)
}

func (id *requestID) UnmarshalJSON(data []byte) error {
	*id = requestID{}
	if json.Unmarshal(data, &id.number) == nil {
		return nil
	}
	id.isString = true
	return json.Unmarshal(data, &id.name)
}

// jsonrpcVersion is the member jsonrpc, which must be "2.0" when present.
type jsonrpcVersion struct{}

func (jsonrpcVersion) MarshalJSON() ([]byte, error) { return []byte(`"2.0"`), nil }

func (*jsonrpcVersion) UnmarshalJSON(data []byte) error {
	var v string
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if v != "2.0" {
		return fmt.Errorf("jsonrpc is %q, not \"2.0\"", v)
	}
	return nil
}

// message is any JSON-RPC message, as read: a request (a method and an
// id), a notification (a method, no id) or a response (an id, no method).
type message struct {
	Version jsonrpcVersion   `json:"jsonrpc"`
	ID      *requestID       `json:"id,omitempty"`
	Method  string           `json:"method"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  *json.RawMessage `json:"result,omitempty"`
	Error   *rpcError        `json:"error,omitempty"`
}

// errNotAMessage is a JSON object that is none of the three kinds.
var errNotAMessage = errors.New("neither a request, a notification nor a response")

// parseMessage reads a JSON object as a message.
func parseMessage(body []byte) (*message, error) {
	m := &message{}
	if err := json.Unmarshal(body, m); err != nil {
		return nil, err
	}
	if m.Method == "" && m.ID == nil {
		return nil, errNotAMessage
	}
	return m, nil
}

// isCall reports whether the message is a request, which is answered.
func (m *message) isCall() bool { return m.Method != "" && m.ID != nil }

// The messages the server writes, members in this order.
type (
	notification struct {
		Version jsonrpcVersion `json:"jsonrpc"`
		Method  string         `json:"method"`
		Params  any            `json:"params"`
	}
	result struct {
		Version jsonrpcVersion `json:"jsonrpc"`
		Result  any            `json:"result"`
		ID      requestID      `json:"id"`
	}
	failure struct {
		Version jsonrpcVersion `json:"jsonrpc"`
		Error   *rpcError      `json:"error"`
		ID      requestID      `json:"id"`
	}
)

// replier answers the message being handled: with the result, or the
// error when it is not nil. It writes nothing for a notification.
type replier func(ctx context.Context, result any, err *rpcError) error

// handler takes one request or notification.
type handler func(ctx context.Context, reply replier, req *message) error

// conn is the server's end of a session.
type conn struct {
	stream *frames
	// writing orders the messages written.
	writing sync.Mutex
	done    chan struct{}
	mu      sync.Mutex
	err     error
}

func newConn(stream *frames) *conn {
	return &conn{stream: stream, done: make(chan struct{})}
}

// goServe reads and handles messages on a goroutine of its own until the
// stream ends; Done is closed then. A handler that fails (an answer that
// cannot be written) closes the stream, and Err is the error.
func (c *conn) goServe(ctx context.Context, h handler) {
	go func() {
		defer close(c.done)
		for {
			msg, err := c.stream.Read(ctx)
			if err != nil {
				c.fail(err)
				return
			}
			if msg.Method == "" {
				continue // a response: the server asked nothing
			}
			if err := h(ctx, c.replier(msg), msg); err != nil {
				c.fail(err)
			}
		}
	}()
}

func (c *conn) replier(req *message) replier {
	return func(ctx context.Context, res any, e *rpcError) error {
		if !req.isCall() {
			return nil
		}
		if e != nil {
			return c.write(ctx, failure{Error: e, ID: *req.ID})
		}
		return c.write(ctx, result{Result: res, ID: *req.ID})
	}
}

// notify sends a notification.
func (c *conn) notify(method string, params any) error {
	return c.write(context.Background(), notification{Method: method, Params: params})
}

func (c *conn) write(ctx context.Context, msg any) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("write to stream: %w", err)
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("write to stream: encoding a message: %w", err)
	}
	c.writing.Lock()
	defer c.writing.Unlock()
	if err := c.stream.send(data); err != nil {
		return fmt.Errorf("write to stream: %w", err)
	}
	return nil
}

func (c *conn) fail(err error) {
	c.mu.Lock()
	c.err = err
	c.mu.Unlock()
	_ = c.stream.Close()
}

// Close closes the stream.
func (c *conn) Close() error { return c.stream.Close() }

// Done is closed when the session's reading has ended.
func (c *conn) Done() <-chan struct{} { return c.done }

// Err is why the session ended.
func (c *conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}
