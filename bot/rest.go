package bot

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/bwmarrin/discordgo"
)

// Discord's interaction callback types.
const (
	callbackMessage          = 4
	callbackDeferMessage     = 5
	callbackDeferUpdate      = 6
	callbackUpdate           = 7
	callbackAutocomplete     = 8
	errCodeOpeningDMsTooFast = 40003
)

// send makes one REST request through discordgo (authorisation, rate
// limits, retries on 429 and 502), as JSON or, with files, as multipart
// with the JSON in payload_json. A multipart body is built once into bytes,
// and discordgo re-sends those same bytes when it retries. ctx ends the
// request, its retries and its waits for a rate limit.
func (b *Bot) send(ctx context.Context, method, url, bucket string, body any, files []*discordgo.File) ([]byte, error) {
	if len(files) > 0 {
		ct, data, err := discordgo.MultipartBodyWithJSON(body, files)
		if err != nil {
			return nil, err
		}
		return b.counted(b.s.RequestRaw(method, url, ct, data, bucket, 0, discordgo.WithContext(ctx)))
	}
	return b.counted(b.s.RequestWithBucketID(method, url, body, bucket, discordgo.WithContext(ctx)))
}

// counted keeps the count of REST failures in a row for the health check:
// Discord's failures (5xx, the network) count; its refusals (4xx) are
// answers, not failures.
func (b *Bot) counted(resp []byte, err error) ([]byte, error) {
	if err != nil && retryable(err) {
		b.restFailures.Add(1)
	} else {
		b.restFailures.Store(0)
	}
	return resp, err
}

// sendInteraction makes a request on an interaction's own route. Its URL
// carries the interaction's token, so Discord limits it apart from every
// other request; a bucket of its own, outside the session's limiter (which
// keeps every key it ever saw), means a slow or rate-limited answer never
// delays another interaction's. The global limit still applies.
func (b *Bot) sendInteraction(ctx context.Context, method, url string, body any, files []*discordgo.File) ([]byte, error) {
	ct, data := "application/json", []byte(nil)
	var err error
	switch {
	case len(files) > 0:
		ct, data, err = discordgo.MultipartBodyWithJSON(body, files)
	case body != nil:
		data, err = json.Marshal(body)
	}
	if err != nil {
		return nil, err
	}
	bucket := discordgo.NewRatelimiter().LockBucket(url)
	return b.counted(b.s.RequestWithLockedBucket(method, url, ct, data, bucket, 0, discordgo.WithContext(ctx)))
}

// callback answers an interaction (POST /interactions/{id}/{token}/callback).
func (b *Bot) callback(ctx context.Context, i *discordgo.Interaction, typ int, data any, files []*discordgo.File) error {
	body := struct {
		Type int `json:"type"`
		Data any `json:"data,omitempty"`
	}{typ, data}
	_, err := b.sendInteraction(ctx, "POST", discordgo.EndpointInteractionResponse(i.ID, i.Token), body, files)
	return err
}

// editOriginal replaces the interaction's original message
// (PATCH /webhooks/{app}/{token}/messages/@original).
func (b *Bot) editOriginal(ctx context.Context, i *discordgo.Interaction, w wireReplacement, files []*discordgo.File) error {
	_, err := b.sendInteraction(ctx, "PATCH", discordgo.EndpointInteractionResponseActions(i.AppID, i.Token), w, files)
	return err
}

// createMessage posts to a channel and returns the new message's id.
func (b *Bot) createMessage(ctx context.Context, channel string, w wireMessage, files []*discordgo.File) (string, []byte, error) {
	url := discordgo.EndpointChannelMessages(channel)
	resp, err := b.send(ctx, "POST", url, url, w, files)
	if err != nil {
		return "", nil, err
	}
	var m struct {
		ID string `json:"id"`
	}
	if err := discordgo.Unmarshal(resp, &m); err != nil {
		return "", nil, err
	}
	return m.ID, resp, nil
}

// discordCode is the JSON error code of a failed request, or 0.
func discordCode(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return 0
}
