package intent

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestCursorsByteForByte: every cursor the service issued (cursors.json roundTrips) is sent back unchanged: in the
// webhookEventsAfter path and in the searchAttempts and webhookRecover bodies. Of the refused ones, the empty one and
// those with a percent escape are refused before sending (a path cannot carry them); the others are sent unchanged,
// for the service to refuse: the SDK never "repairs" a cursor.
func TestCursorsByteForByte(t *testing.T) {
	type kind struct {
		RoundTrips []struct {
			Cursor string `json:"cursor"`
		} `json:"roundTrips"`
		Refusals []struct {
			Why    string `json:"why"`
			Cursor string `json:"cursor"`
			Code   string `json:"code"`
		} `json:"refusals"`
	}
	var file struct {
		Alphabet       string `json:"alphabet"`
		SearchAttempts kind   `json:"searchAttempts"`
		WebhookEvents  kind   `json:"webhookEvents"`
		WebhookRecover kind   `json:"webhookRecover"`
	}
	loadVectors(t, "cursors.json", &file)
	s := newScripted(t, jsonAnswer(200, `{"apiVersion":"1","events":[],"hasMore":false,"nextCursor":"x","attempts":[],"nextCursor":null,"recovered":[],"from":"a","to":"b"}`))
	c, _ := newTestClient(t, s.srv.URL, Options{})
	ctx := context.Background()
	n := 0
	for _, rt := range file.WebhookEvents.RoundTrips {
		if _, err := c.WebhookEventsAfter(ctx, rt.Cursor); err != nil {
			t.Fatal(err)
		}
		if got := s.got()[len(s.got())-1].path; got != "/api/external/webhooks/events/after/"+rt.Cursor {
			t.Errorf("cursor changed on the way: %s", got)
		}
		n++
	}
	for _, rt := range file.SearchAttempts.RoundTrips {
		if _, err := c.SearchAttempts(ctx, AttemptSearchRequest{WalletAddress: "0x1", Cursor: rt.Cursor}); err != nil {
			t.Fatal(err)
		}
		if body := string(s.got()[len(s.got())-1].body); !strings.Contains(body, `"cursor":"`+rt.Cursor+`"`) {
			t.Errorf("search cursor changed: %s", body)
		}
		n++
	}
	for _, rt := range file.WebhookRecover.RoundTrips {
		if _, err := c.WebhookRecover(ctx, WebhookRecoverRequest{From: "a", To: "b", Continuation: rt.Cursor}); err != nil {
			t.Fatal(err)
		}
		if body := string(s.got()[len(s.got())-1].body); !strings.Contains(body, `"continuation":"`+rt.Cursor+`"`) {
			t.Errorf("continuation changed: %s", body)
		}
		n++
	}
	for _, r := range file.WebhookEvents.Refusals {
		before := len(s.got())
		_, err := c.WebhookEventsAfter(ctx, r.Cursor)
		local := r.Cursor == "" || strings.ContainsAny(r.Cursor, "%/?#")
		if local != errors.Is(err, ErrInvalidResourceID) {
			t.Errorf("%s: %v", r.Why, err)
		}
		if !local && s.got()[before].path != "/api/external/webhooks/events/after/"+r.Cursor {
			t.Errorf("%s: sent as %s", r.Why, s.got()[before].path)
		}
		n++
	}
	checkCount(t, "cursors.json", n)
}
