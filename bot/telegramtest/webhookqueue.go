package telegramtest

import (
	"encoding/json"
	"strconv"
)

// hookQueueRule says which delivery queue an update of one type goes to: the
// queues of a class are told apart by the id that field holds.
type hookQueueRule struct {
	class int
	field string // "chat", "from", "user", "member" (old_chat_member.user), or the poll id's field
}

// hookQueueRules are the official server's webhook queues (the
// webhook_queue_id each add_update call in telegram-bot-api/Client.cpp
// passes, a class shifted by 33 bits plus an id): messages and their edits
// queue per chat, callback queries per user, my_chat_member per chat,
// chat_member and join requests per user, reactions per chat, and so on.
// A queue delivers one update at a time, in order; different queues are
// delivered in parallel (WebhookActor.cpp). A type not listed gets a queue
// of its own per update (webhook_queue_id 0 there).
var hookQueueRules = map[string]hookQueueRule{
	"message":                   {0, "chat"},
	"edited_message":            {0, "chat"},
	"channel_post":              {0, "chat"},
	"edited_channel_post":       {0, "chat"},
	"inline_query":              {1, "from"},
	"chosen_inline_result":      {2, "from"},
	"callback_query":            {3, "from"},
	"shipping_query":            {4, "from"},
	"pre_checkout_query":        {4, "from"},
	"my_chat_member":            {5, "chat"},
	"chat_member":               {6, "member"},
	"chat_join_request":         {6, "from"},
	"chat_boost":                {7, "chat"},
	"removed_chat_boost":        {7, "chat"},
	"message_reaction":          {8, "chat"},
	"message_reaction_count":    {9, "chat"},
	"business_connection":       {10, "user"},
	"business_message":          {11, "chat"},
	"edited_business_message":   {11, "chat"},
	"deleted_business_messages": {11, "chat"},
	"purchased_paid_media":      {12, "from"},
	"guest_message":             {12, "chat"},
	"poll":                      {13, "id"},
	"poll_answer":               {13, "poll_id"},
}

// webhookQueue names the delivery queue of a pending update. An update
// whose rule's id is missing (a raw update of a test) has a queue of its own.
func webhookQueue(it queuedUpdate) string {
	own := "update:" + strconv.Itoa(it.id)
	rule, ok := hookQueueRules[it.kind]
	if !ok {
		return own
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(it.raw, &fields); err != nil {
		return own
	}
	type idOf struct {
		ID json.RawMessage `json:"id"`
	}
	var body struct {
		Chat          idOf                `json:"chat"`
		From          idOf                `json:"from"`
		User          idOf                `json:"user"`
		OldChatMember struct{ User idOf } `json:"old_chat_member"`
		ID            json.RawMessage     `json:"id"`
		PollID        json.RawMessage     `json:"poll_id"`
	}
	if err := json.Unmarshal(fields[it.kind], &body); err != nil {
		return own
	}
	var id json.RawMessage
	switch rule.field {
	case "chat":
		id = body.Chat.ID
	case "from":
		id = body.From.ID
	case "user":
		id = body.User.ID
	case "member":
		id = body.OldChatMember.User.ID
	case "id":
		id = body.ID
	case "poll_id":
		id = body.PollID
	}
	if len(id) == 0 || string(id) == "null" {
		return own
	}
	return strconv.Itoa(rule.class) + ":" + string(id)
}
