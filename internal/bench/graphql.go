package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// GraphQL is a client of the service's POST /graphql over keep-alive
// connections, enough of them for every client of a load.
type GraphQL struct {
	url  string
	http *http.Client
}

// NewGraphQL returns a client of the service at baseURL that keeps up to
// conns idle connections open.
func NewGraphQL(baseURL string, conns int) *GraphQL {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConns = conns
	transport.MaxIdleConnsPerHost = conns
	return &GraphQL{url: baseURL + "/graphql", http: &http.Client{Transport: transport}}
}

// Close closes the idle connections.
func (c *GraphQL) Close() { c.http.CloseIdleConnections() }

// graphQLError is one entry of a response's errors.
type graphQLError struct {
	Message    string `json:"message"`
	Extensions struct {
		Code string `json:"code"`
	} `json:"extensions"`
}

// Do sends query with vars, with token as a bearer token unless it is "",
// and decodes the answer's data into data. A transport error, a status other
// than 200 and any GraphQL error are errors.
func (c *GraphQL) Do(ctx context.Context, token, query string, vars map[string]any, data any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return fmt.Errorf("read answer: %w", err)
	}
	// One pass over the answer: its data straight into the caller's value.
	if data == nil {
		data = new(json.RawMessage)
	}
	answer := struct {
		Data   any            `json:"data"`
		Errors []graphQLError `json:"errors"`
	}{Data: data}
	if err := json.Unmarshal(raw, &answer); err != nil {
		return fmt.Errorf("status %d, answer not JSON or not of the data's shape: %w: %.200s", res.StatusCode, err, raw)
	}
	if len(answer.Errors) > 0 {
		msgs := make([]string, len(answer.Errors))
		for i, e := range answer.Errors {
			msgs[i] = e.Extensions.Code + ": " + e.Message
		}
		return fmt.Errorf("status %d, GraphQL errors: %s", res.StatusCode, strings.Join(msgs, "; "))
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d: %.200s", res.StatusCode, raw)
	}
	return nil
}

// MonthState is the state of a month, or of a period of a board.
type MonthState struct {
	Status       string // "" when the month never opened
	Participants int
}

// Month returns the state of month m ("YYYY-MM").
func (c *GraphQL) Month(ctx context.Context, m string) (MonthState, error) {
	const q = `query Month($month: Month!) { month(month: $month) { status participants } }`
	var data struct {
		Month *MonthState `json:"month"`
	}
	if err := c.Do(ctx, "", q, map[string]any{"month": m}, &data); err != nil || data.Month == nil {
		return MonthState{}, err
	}
	return *data.Month, nil
}
