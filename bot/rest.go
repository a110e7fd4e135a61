package bot

import (
	"errors"
	"hash/fnv"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// Discord's interaction callback types.
const (
	callbackMessage        = 4
	callbackDeferMessage   = 5
	callbackDeferUpdate    = 6
	callbackUpdate         = 7
	callbackAutocomplete   = 8
	errCodeCannotSendToDMs = 50007
)

// interactionBuckets is how many rate-limit buckets interaction requests
// share. discordgo keys a bucket by URL and never forgets one; interaction
// URLs carry a token that is new each time, so keying by URL would grow a
// bucket per interaction forever. A fixed set keeps memory bounded while
// letting that many requests run at once (a bucket is held for the length
// of its request).
const interactionBuckets = 64

func interactionBucket(route, interactionID string) string {
	h := fnv.New32a()
	h.Write([]byte(interactionID))
	return "conductor/" + route + "/" + strconv.Itoa(int(h.Sum32()%interactionBuckets))
}

// send makes one REST request through discordgo (authorisation, rate
// limits, retries on 429 and 502), as JSON or, with files, as multipart
// with the JSON in payload_json. A multipart body is built once into bytes,
// and discordgo re-sends those same bytes when it retries.
func (b *Bot) send(method, url, bucket string, body any, files []*discordgo.File) ([]byte, error) {
	if len(files) > 0 {
		ct, data, err := discordgo.MultipartBodyWithJSON(body, files)
		if err != nil {
			return nil, err
		}
		return b.s.RequestRaw(method, url, ct, data, bucket, 0)
	}
	return b.s.RequestWithBucketID(method, url, body, bucket)
}

// callback answers an interaction (POST /interactions/{id}/{token}/callback).
func (b *Bot) callback(i *discordgo.Interaction, typ int, data any, files []*discordgo.File) error {
	body := struct {
		Type int `json:"type"`
		Data any `json:"data,omitempty"`
	}{typ, data}
	_, err := b.send("POST", discordgo.EndpointInteractionResponse(i.ID, i.Token), interactionBucket("callback", i.ID), body, files)
	return err
}

// followUp sends a follow-up message (POST /webhooks/{app}/{token}).
func (b *Bot) followUp(i *discordgo.Interaction, w wireMessage, files []*discordgo.File) error {
	_, err := b.send("POST", discordgo.EndpointFollowupMessage(i.AppID, i.Token), interactionBucket("webhook", i.ID), w, files)
	return err
}

// editOriginal replaces the interaction's original message
// (PATCH /webhooks/{app}/{token}/messages/@original).
func (b *Bot) editOriginal(i *discordgo.Interaction, w wireReplacement, files []*discordgo.File) error {
	_, err := b.send("PATCH", discordgo.EndpointInteractionResponseActions(i.AppID, i.Token), interactionBucket("webhook", i.ID), w, files)
	return err
}

// deleteOriginal removes the interaction's original message.
func (b *Bot) deleteOriginal(i *discordgo.Interaction) error {
	_, err := b.send("DELETE", discordgo.EndpointInteractionResponseActions(i.AppID, i.Token), interactionBucket("webhook", i.ID), nil, nil)
	return err
}

// createMessage posts to a channel and returns the new message's id.
func (b *Bot) createMessage(channel string, w wireMessage, files []*discordgo.File) (string, error) {
	url := discordgo.EndpointChannelMessages(channel)
	resp, err := b.send("POST", url, url, w, files)
	if err != nil {
		return "", err
	}
	var m struct {
		ID string `json:"id"`
	}
	if err := discordgo.Unmarshal(resp, &m); err != nil {
		return "", err
	}
	return m.ID, nil
}

// discordCode is the JSON error code of a failed request, or 0.
func discordCode(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return 0
}
