package i18n

// The Mini App's texts in the chat (kept apart: keys.go is past 600
// lines).
const (
	// BtnOpenApp opens the Mini App at the table (the table message's
	// link button, shown when the app is configured).
	BtnOpenApp Key = "btn.openapp"
)
