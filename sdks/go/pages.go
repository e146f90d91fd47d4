package intent

import (
	"context"
	"iter"
)

// AllAttempts iterates over every attempt matching search, page after page, newest first: it sends search, then
// the same filters with each answer's nextCursor (opaque, passed back byte for byte) until there is none. Each page
// is a new searchAttempts operation (its own Idempotency-Key). An error is yielded once and ends the iteration.
//
//	for a, err := range client.AllAttempts(ctx, intent.AttemptSearchRequest{WalletAddress: addr}) { ... }
func (c *Client) AllAttempts(ctx context.Context, search AttemptSearchRequest) iter.Seq2[AttemptSummary, error] {
	return func(yield func(AttemptSummary, error) bool) {
		req := search
		for {
			page, err := c.SearchAttempts(ctx, req)
			if err != nil {
				yield(AttemptSummary{}, err)
				return
			}
			for _, a := range page.Attempts {
				if !yield(a, nil) {
					return
				}
			}
			if page.NextCursor == nil || *page.NextCursor == "" {
				return
			}
			req.Cursor = *page.NextCursor
		}
	}
}

// AllWebhookEvents iterates over the partner's webhook events, oldest first, across every page (see
// WebhookEventPages). An error is yielded once and ends the iteration.
func (c *Client) AllWebhookEvents(ctx context.Context) iter.Seq2[WebhookEventRecord, error] {
	return func(yield func(WebhookEventRecord, error) bool) {
		for page, err := range c.WebhookEventPages(ctx, "") {
			if err != nil {
				yield(WebhookEventRecord{}, err)
				return
			}
			for _, e := range page.Events {
				if !yield(e, nil) {
					return
				}
			}
		}
	}
}

// WebhookEventPages iterates over the pages of the partner's webhook events, oldest first: webhookEvents when
// after is "", else webhookEventsAfter(after); then webhookEventsAfter with each page's nextCursor while hasMore.
// Keep the last page's NextCursor: WebhookEventPages(ctx, cursor) later polls for the events queued since.
func (c *Client) WebhookEventPages(ctx context.Context, after string) iter.Seq2[*WebhookEventsResponse, error] {
	return func(yield func(*WebhookEventsResponse, error) bool) {
		for {
			var page *WebhookEventsResponse
			var err error
			if after == "" {
				page, err = c.WebhookEvents(ctx)
			} else {
				page, err = c.WebhookEventsAfter(ctx, after)
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(page, nil) || !page.HasMore || page.NextCursor == "" {
				return
			}
			after = page.NextCursor
		}
	}
}
