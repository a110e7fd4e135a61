package commands

import (
	"strings"

	"conductor/present"
)

// Permissions are Discord permission bits: the bot's, where a request was
// made. Only those Conductor needs have names here.
type Permissions int64

// The permissions a table needs (Discord's numbering).
const (
	PermViewChannel           Permissions = 1 << 10
	PermSendMessages          Permissions = 1 << 11
	PermEmbedLinks            Permissions = 1 << 14
	PermAttachFiles           Permissions = 1 << 15
	PermCreatePublicThreads   Permissions = 1 << 35
	PermSendMessagesInThreads Permissions = 1 << 38
)

// permissionKeys name the permissions in the texts, in the order they are
// listed.
var permissionKeys = []struct {
	bit Permissions
	key string
}{
	{PermViewChannel, "perm.view_channel"},
	{PermSendMessages, "perm.send_messages"},
	{PermSendMessagesInThreads, "perm.send_messages_in_threads"},
	{PermAttachFiles, "perm.attach_files"},
	{PermEmbedLinks, "perm.embed_links"},
	{PermCreatePublicThreads, "perm.create_public_threads"},
}

// names lists the permissions of p by the names Discord's settings give
// them in a language, joined for a sentence.
func (p Permissions) names(loc string) string {
	var out []string
	for _, k := range permissionKeys {
		if p&k.bit != 0 {
			out = append(out, present.T(loc, k.key))
		}
	}
	return strings.Join(out, ", ")
}

// ChannelKind is the kind of channel a request came from.
type ChannelKind uint8

const (
	ChannelUnknown       ChannelKind = iota // the transport does not say
	ChannelText                             // a server's text channel
	ChannelPublicThread                     // a public thread (or an announcement thread)
	ChannelPrivateThread                    // a private thread
	ChannelDM                               // a direct message with the bot
	ChannelOther                            // a voice channel's chat, an announcement channel...
)

// IsThread: the channel is a thread.
func (k ChannelKind) IsThread() bool { return k == ChannelPublicThread || k == ChannelPrivateThread }

// postingNeeds are the permissions a table needs in a channel of this kind
// to show itself: see it, post (in a thread: Send Messages in Threads),
// upload the board picture and show the lobby and scores as embeds.
func postingNeeds(kind ChannelKind) Permissions {
	send := PermSendMessages
	if kind.IsThread() {
		send = PermSendMessagesInThreads
	}
	return PermViewChannel | send | PermAttachFiles | PermEmbedLinks
}

// threadNeeds are what a table's own thread needs beyond postingNeeds of
// its channel (a thread's permissions are its parent's).
const threadNeeds = PermCreatePublicThreads | PermSendMessagesInThreads

// missingToPost are the permissions the request shows the bot lacks to
// post a table's messages where it was made (none when the transport
// does not know them, or in a DM).
func missingToPost(req *Request) Permissions {
	if !req.KnownPermissions || req.DM {
		return 0
	}
	return postingNeeds(req.ChannelKind) &^ req.AppPermissions
}
