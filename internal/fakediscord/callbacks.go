package fakediscord

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"
)

func init() {
	route("POST /interactions/{interaction_id}/{interaction_token}/callback", handleInteractionCallback)
	route("POST /webhooks/{webhook_id}/{webhook_token}", handleFollowup)
	route("GET /webhooks/{webhook_id}/{webhook_token}/messages/@original", handleGetWebhookMessage)
	route("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original", handleEditWebhookMessage)
	route("DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original", handleDeleteWebhookMessage)
	route("GET /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", handleGetWebhookMessage)
	route("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", handleEditWebhookMessage)
	route("DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", handleDeleteWebhookMessage)
}

// allowedCallbacks lists the callback types Discord accepts for each interaction type.
var allowedCallbacks = map[int][]int{
	InteractionCommand:      {CallbackMessage, CallbackDeferredMessage, CallbackModal, CallbackLaunchActivity},
	InteractionComponent:    {CallbackMessage, CallbackDeferredMessage, CallbackDeferredUpdate, CallbackUpdateMessage, CallbackModal, CallbackLaunchActivity},
	InteractionAutocomplete: {CallbackAutocompleteResult},
}

func handleInteractionCallback(s *Server, c *call) {
	var req struct {
		Type int             `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if c.body.JSON != nil {
		json.Unmarshal(c.body.JSON, &req)
	}
	var data map[string]json.RawMessage
	if len(req.Data) > 0 && string(req.Data) != "null" {
		json.Unmarshal(req.Data, &data)
	}
	if data == nil {
		data = map[string]json.RawMessage{}
	}
	s.mu.Lock()
	it, ok := s.interactions[c.params["interaction_id"]]
	if !ok || it.token != c.params["interaction_token"] {
		s.mu.Unlock()
		c.fail(http.StatusNotFound, 10062, "Unknown interaction")
		return
	}
	if it.callback != nil {
		s.mu.Unlock()
		c.fail(http.StatusBadRequest, 40060, "Interaction has already been acknowledged.")
		return
	}
	latency := time.Since(it.dispatched)
	if s.opts.CallbackDeadline > 0 && latency > s.opts.CallbackDeadline || s.tokenExpiredLocked(it) {
		s.mu.Unlock()
		c.fail(http.StatusNotFound, 10062, "Unknown interaction")
		return
	}
	allowed := false
	for _, t := range allowedCallbacks[it.kind] {
		allowed = allowed || t == req.Type
	}
	// Updating a message needs one.
	if (req.Type == CallbackDeferredUpdate || req.Type == CallbackUpdateMessage) && it.messageID == "" {
		allowed = false
	}
	if allowed && req.Type == CallbackLaunchActivity && s.activitiesOff {
		// Not a malformed request: the application has no Activity to open.
		s.mu.Unlock()
		c.fail(http.StatusBadRequest, 40043, "Interaction callback type is not valid for this interaction: the application has no Activities enabled")
		return
	}
	if !allowed {
		s.mu.Unlock()
		c.invalid = append(c.invalid, SchemaError{Pointer: "/type", Message: fmt.Sprintf(
			"callback type %d is not valid for interaction type %d (allowed: %v)", req.Type, it.kind, allowedCallbacks[it.kind])})
		c.fail(http.StatusBadRequest, 40043, "Interaction callback type is not valid for this interaction")
		return
	}
	cb := &Callback{Type: req.Type, Data: req.Data, Files: c.files(), Latency: latency}
	var event string
	var eventData map[string]any
	guildID := it.guildID
	switch req.Type {
	case CallbackMessage, CallbackDeferredMessage:
		m := &Message{ID: s.ids.next(), ChannelID: it.channelID, GuildID: it.guildID, Author: s.bot,
			CreatedAt: s.Now(), InteractionID: it.id, WebhookID: s.bot.ID}
		if it.kind == InteractionCommand {
			m.Type = 20
		}
		if err := s.applyPayloadLocked(m, data, c.files(), false); err != nil {
			s.mu.Unlock()
			c.failWith(payloadRefusal(err, "/data"))
			return
		}
		if req.Type == CallbackDeferredMessage {
			m.Flags = m.Flags&FlagEphemeral | FlagLoading
		} else if isEmptyMessage(m) {
			s.mu.Unlock()
			c.fail(http.StatusBadRequest, 50006, "Cannot send an empty message")
			return
		}
		if m.Ephemeral() {
			m.VisibleTo = it.userID
		}
		s.storeMessageLocked(m)
		it.originalID, cb.MessageID = m.ID, m.ID
		if !m.Ephemeral() {
			event, eventData = "MESSAGE_CREATE", s.messageJSONLocked(m)
		}
	case CallbackDeferredUpdate:
		it.originalID, cb.MessageID = it.messageID, it.messageID
	case CallbackUpdateMessage:
		m := s.messages[it.messageID]
		if m == nil || m.Deleted {
			s.mu.Unlock()
			c.fail(http.StatusNotFound, 10008, "Unknown Message")
			return
		}
		out, apiErr := s.editMessageLocked(m, data, c.files())
		if apiErr != nil {
			s.mu.Unlock()
			for i := range apiErr.invalid {
				apiErr.invalid[i].Pointer = "/data" + apiErr.invalid[i].Pointer
			}
			c.failWith(apiErr)
			return
		}
		it.originalID, cb.MessageID = m.ID, m.ID
		if !m.Ephemeral() {
			event, eventData = "MESSAGE_UPDATE", out
		}
	case CallbackAutocompleteResult:
		var d struct {
			Choices []OptionChoice `json:"choices"`
		}
		json.Unmarshal(req.Data, &d)
		cb.Choices = d.Choices
	case CallbackLaunchActivity:
		cb.ActivityInstance = s.launchActivityLocked(it)
	}
	it.callback = cb
	s.changedLocked()
	var resource map[string]any
	if it.originalID != "" {
		resource = map[string]any{"type": req.Type, "message": s.messageJSONLocked(s.messages[it.originalID])}
	}
	interaction := map[string]any{"id": it.id, "type": it.kind}
	if cb.ActivityInstance != "" {
		// Both places are optional in Discord's pages (SetLaunchNames).
		resource = nil
		if s.launchNames != LaunchNamesInteraction {
			resource = map[string]any{"type": req.Type, "activity_instance": map[string]any{"id": cb.ActivityInstance}}
		}
		if s.launchNames != LaunchNamesResource {
			interaction["activity_instance_id"] = cb.ActivityInstance
		}
	}
	s.mu.Unlock()
	if event != "" {
		s.dispatchMessageEvent(guildID, event, eventData)
	}
	if c.rec.Query.Get("with_response") == "true" {
		out := map[string]any{"interaction": interaction}
		if resource != nil {
			out["resource"] = resource
		}
		c.json(http.StatusOK, out)
		return
	}
	c.noContent()
}

// tokenExpiredLocked: "Interaction tokens are valid for 15 minutes" (Receiving and
// Responding), counted on Discord's clock from the interaction's creation.
func (s *Server) tokenExpiredLocked(it *interactionState) bool {
	return s.Now().Sub(snowflakeTime(it.id)) > tokenLifetime
}

// webhookInteractionLocked resolves /webhooks/{application id}/{interaction token}; the fake
// has no other webhooks.
func (s *Server) webhookInteractionLocked(c *call) (*interactionState, bool) {
	it, ok := s.byToken[c.params["webhook_token"]]
	if !ok || c.params["webhook_id"] != s.bot.ID {
		c.fail(http.StatusNotFound, 10015, "Unknown Webhook")
		return nil, false
	}
	if it.callback == nil {
		// The webhook exists only once the interaction was acknowledged.
		c.fail(http.StatusNotFound, 10015, "Unknown Webhook")
		return nil, false
	}
	if s.tokenExpiredLocked(it) {
		c.fail(http.StatusUnauthorized, 50027, "Invalid Webhook Token")
		return nil, false
	}
	return it, true
}

// webhookMessageLocked finds @original or a follow-up of the interaction.
func (s *Server) webhookMessageLocked(c *call, it *interactionState) (*Message, bool) {
	id, ok := c.params["message_id"]
	if !ok {
		id = it.originalID
	} else if id != it.originalID && !slices.Contains(it.followups, id) {
		id = ""
	}
	m := s.messages[id]
	if id == "" || m == nil || m.Deleted {
		c.fail(http.StatusNotFound, 10008, "Unknown Message")
		return nil, false
	}
	return m, true
}

func handleFollowup(s *Server, c *call) {
	s.mu.Lock()
	it, ok := s.webhookInteractionLocked(c)
	if !ok {
		s.mu.Unlock()
		return
	}
	// "When using this endpoint directly after responding to an interaction with
	// DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, this endpoint will function as Edit Original
	// Interaction Response [...] no new message will be created, and the loading message
	// will be edited instead. The ephemeral flag will be ignored" (Create Followup Message).
	if orig := s.messages[it.originalID]; it.callback.Type == CallbackDeferredMessage && orig != nil && !orig.Deleted && orig.Loading() {
		out, apiErr := s.editMessageLocked(orig, c.document(), c.files())
		ephemeral, guildID := orig.Ephemeral(), orig.GuildID
		s.mu.Unlock()
		if apiErr != nil {
			c.failWith(apiErr)
			return
		}
		if !ephemeral {
			s.dispatchMessageEvent(guildID, "MESSAGE_UPDATE", out)
		}
		c.json(http.StatusOK, out)
		return
	}
	m := &Message{ID: s.ids.next(), ChannelID: it.channelID, GuildID: it.guildID, Author: s.bot,
		CreatedAt: s.Now(), InteractionID: it.id, WebhookID: s.bot.ID}
	if err := s.applyPayloadLocked(m, c.document(), c.files(), false); err != nil {
		s.mu.Unlock()
		c.failWith(payloadRefusal(err, ""))
		return
	}
	if isEmptyMessage(m) {
		s.mu.Unlock()
		c.fail(http.StatusBadRequest, 50006, "Cannot send an empty message")
		return
	}
	if m.Ephemeral() {
		m.VisibleTo = it.userID
	}
	s.storeMessageLocked(m)
	it.followups = append(it.followups, m.ID)
	out := s.messageJSONLocked(m)
	ephemeral, guildID := m.Ephemeral(), m.GuildID
	s.mu.Unlock()
	if !ephemeral {
		s.dispatchMessageEvent(guildID, "MESSAGE_CREATE", out)
	}
	// Follow-ups always answer with the message: for interactions "wait" is always true.
	c.json(http.StatusOK, out)
}

func handleGetWebhookMessage(s *Server, c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.webhookInteractionLocked(c)
	if !ok {
		return
	}
	if m, ok := s.webhookMessageLocked(c, it); ok {
		c.json(http.StatusOK, s.messageJSONLocked(m))
	}
}

func handleEditWebhookMessage(s *Server, c *call) {
	s.mu.Lock()
	it, ok := s.webhookInteractionLocked(c)
	if !ok {
		s.mu.Unlock()
		return
	}
	m, ok := s.webhookMessageLocked(c, it)
	if !ok {
		s.mu.Unlock()
		return
	}
	out, apiErr := s.editMessageLocked(m, c.document(), c.files())
	ephemeral, guildID := m.Ephemeral(), m.GuildID
	s.mu.Unlock()
	if apiErr != nil {
		c.failWith(apiErr)
		return
	}
	if !ephemeral {
		s.dispatchMessageEvent(guildID, "MESSAGE_UPDATE", out)
	}
	c.json(http.StatusOK, out)
}

func handleDeleteWebhookMessage(s *Server, c *call) {
	s.mu.Lock()
	it, ok := s.webhookInteractionLocked(c)
	if !ok {
		s.mu.Unlock()
		return
	}
	m, ok := s.webhookMessageLocked(c, it)
	if !ok {
		s.mu.Unlock()
		return
	}
	m.Deleted = true
	s.changedLocked()
	s.mu.Unlock()
	c.noContent()
}
