package i18n

// en is the English catalogue.
var en = map[Key]string{
	TableTitleLobby:  "🃏 Twenty One — table open",
	TableTitleGame:   "🃏 Twenty One — circle %s · bank 🏦 %s",
	TableTitleClosed: "🃏 Twenty One — table closed",
	TableLimits:      "Stake %s · entry %s · %s–%s players",
	TableSeated:      "Seated (%s/%s):",
	TableNobody:      "Nobody is seated yet.",
	TableHint:        "Anyone with %s or more can sit down. A seated player starts.",
	TableCloses:      "Closes in %s if nobody starts.",
	TableBanker:      "Banker: %s",
	TableKnocks:      "Knocks: %s of %s",
	TableSeatBet:     "bet %s",
	TableSeatBetting: "← your bet, %s (%s)",
	TableSeatDrawing: "← %s: hit or stand? (%s)",
	TableSeatSatOut:  "sits this circle out",
	TableSeatPlayed:  "✓ played",
	TableSeatLeaving: "leaving",
	TableDeck:        "🔐 Deck sha256: %s",
	TableDeckCheck:   "🔐 Deck check: sha256 %s · /verify %s",

	LogBanker:       "banker",
	LogPlayerWins:   "%s wins %s",
	LogBankerWins:   "the bank takes %s",
	LogTie:          "tie: the bank takes %s",
	LogBankerBust:   "banker busts: %s wins %s",
	LogPlayerBust:   "bust: %s to the bank",
	LogTwentyOne:    "21! %s wins %s",
	LogGolden:       "Golden 21! %s wins %s",
	LogFivePictures: "Five pictures! %s wins %s",
	LogForfeit:      "left: %s to the bank",
	LogTrimmed:      "… earlier results hidden",
	LogKnock:        "🔔 Knock! The bank grew from %s to %s: another circle with the same bank.",
	LogKnockTo:      "🔔 Knock! The bank grew to %s: another circle with the same bank.",

	GameOverTakes:    "🏁 Game over. %s takes the bank: %s.",
	GameOverBroken:   "🏁 Game over: the bank is broken, %s takes nothing.",
	SummaryTitle:     "🏁 Twenty One — game %s",
	GameOverLast:     "Last game:",
	ClosedTimeout:    "Nobody started a game in time.",
	ClosedCancelled:  "An admin cancelled the game: every bet was refunded.",
	ClosedEmpty:      "Everyone left.",
	ClosedEntryLimit: "Nobody had the chips to stay.",
	ClosedOther:      "The table is closed.",
	ClosedHint:       "A new table: the button below or /newgame.",

	BtnJoin:      "Join",
	BtnLeave:     "Leave",
	BtnStart:     "Start ▶",
	BtnPlayAgain: "Play again ▶",
	BtnHit:       "Hit 🂠",
	BtnStand:     "Stand ✋",
	BtnNewTable:  "New table",
	BtnVerify:    "🔐 Check the deck",
	BetBank:      "bank",
	BetAllIn:     "all in",

	PopTurn:             "It's %s's turn.",
	PopOutdated:         "This table has moved on.",
	PopNeedChips:        "You need %s to sit here; you have %s. /bonus gives %s a day.",
	PopSeated:           "You're already seated.",
	PopFull:             "The table is full.",
	PopNotSeated:        "You're not at this table.",
	PopNeedPlayers:      "Need at least %s players.",
	PopInProgress:       "A game is in progress; join when it ends.",
	PopNotOffered:       "That bet isn't offered.",
	PopNotNow:           "Not now.",
	PopNoTable:          "No table is open: /newgame opens one.",
	PopBadButton:        "This button doesn't work here.",
	PopVerifySent:       "The deck check is in the chat, just above.",
	PopAnonymous:        "Anonymous admins can't play: post as yourself to sit down.",
	PopJoined:           "You're in.",
	PopLeft:             "You left the table.",
	PopBet:              "Bet %s",
	PopHit:              "%s · %s",
	PopHitBust:          "%s · %s: bust!",
	PopHitTwentyOne:     "%s · 21!",
	PopHitGolden:        "%s · Golden 21!",
	PopHitFivePictures:  "%s · Five pictures!",
	PopStand:            "Stand at %s.",
	PopAdminOnly:        "Only chat admins can do that.",
	PopError:            "Something went wrong. Try again.",
	PopInvalid:          "Not valid: %s",
	PopSaved:            "Saved.",
	PopSettingsOutdated: "The settings have changed meanwhile; look again.",
	PopInfoStake:        "Stake: the chips the banker puts into the bank when a game starts.",
	PopInfoEntry:        "Entry limit: the balance a player needs to sit down. It is at least the stake.",
	PopInfoBets:         "Bets: the bet buttons a player chooses from, each capped at the bank and the player's balance. Up to 6.",
	PopInfoTurn:         "Turn time: how long a player has to bet, draw or stand.",
	PopInfoLobby:        "Lobby time: how long an open table waits for someone to start.",
	PopInfoKnocks:       "Knocks: how many more circles a game may play when the bank triples in a circle.",
	PopInfoLang:         "The language the bot speaks in this chat.",

	Balance:        "%s, your balance: %s.",
	BonusGranted:   "%s, here is your daily bonus: %s. Your balance: %s.",
	BonusWait:      "%s, your next bonus comes in %s.",
	BonusNotNeeded: "%s, the bonus is for balances below %s; yours is %s.",
	Help: "<b>🃏 Twenty One</b> (Ochko) for group chats: players bet against the banker's bank " +
		"and draw cards, all in one message that I keep up to date.\n\n" +
		"/newgame: open a table, or show the open one\n" +
		"/leave: stand up from the table\n" +
		"/balance: your chips in this chat\n" +
		"/bonus: free chips once a day when you run low\n" +
		"/rules: the rules in short\n" +
		"/settings: the table settings (admins change them)\n" +
		"/cancel: cancel the game and refund every bet (admins)\n" +
		"/lang: the language, en or ru\n" +
		"/verify N: the decks of game N, to check the shuffle\n" +
		"/top: the chat's leaderboard\n" +
		"/stats: your results (reply to someone for theirs)\n" +
		"/history: your last chip movements\n" +
		"/audit: check that the chat's chips add up (admins)\n" +
		"/kick: reply to a player to stand them up (admins)",
	Rules: "<b>The rules in short</b>\n" +
		"• 36 cards, 6 to ace. Points: 6 to 10 as written, J 2, Q 3, K 4, A 11.\n" +
		"• Two aces are a <b>Golden 21</b>, five pictures (J Q K A) are <b>21</b> too. Over 21 is a bust.\n" +
		"• 2 to 4 players. The banker puts the stake into the bank; the next game the next player is the banker.\n" +
		"• The banker deals every player one card. Then each in turn bets (at most the bank) and takes cards (Hit) or stops (Stand). " +
		"21 wins at once, over 21 loses at once.\n" +
		"• Then the banker draws a hand of his own until he has 17 or more. " +
		"He busts: you win. Otherwise the higher score wins, and a tie goes to the banker.\n" +
		"• You win: the bank pays your bet. You lose: your bet goes into the bank.\n" +
		"• If the bank has grown threefold in a circle, the banker knocks: another circle with the same bank. " +
		"Otherwise the banker takes the bank. An empty bank ends the game.\n" +
		"• No move in time: before your bet you sit the circle out, after it you stand. " +
		"Leaving during a game loses your bet on the table.\n" +
		"• To sit down you need at least the table's entry limit in chips (it is not paid, only checked); /bonus gives free chips once a day when you are below it.\n" +
		"• Every deck is locked by its SHA-256 before the first card and revealed after: /verify checks it.",
	StartPrivate: "Hi! I host <b>Twenty One</b> (Ochko) in group chats. " +
		"Add me to a group (the group's menu: Add members), then send /newgame there to open a table. " +
		"/rules has the rules, /help the commands.",
	GroupsOnly:    "Tables are played in group chats: add me to a group and send /newgame there.",
	Welcome:       "🃏 Hi! I host Twenty One here. /newgame opens a table, /rules has the rules, /help the commands. Everyone starts with %s.",
	AnonymousPlay: "Anonymous admins can't play: post as yourself to sit down.",
	NewGameOpen:   "The table is below.",
	LeaveDone:     "%s left the table.",
	LeaveInGame:   "%s leaves the table; a bet on it goes to the bank.",
	CancelDone:    "Game cancelled: every bet refunded, the bank returned to the banker.",
	CancelLobby:   "Table closed.",
	CancelNothing: "There is nothing to cancel.",
	LangCurrent:   "Language: %s. To change it: /lang en or /lang ru.",
	LangSet:       "Language: %s.",
	LangUnknown:   "I don't speak %s: use en or ru.",
	VerifyTitle:   "🔐 Game %s: the decks, revealed in the order they were dealt.",
	VerifyDeck:    "Deck %s · sha256 <code>%s</code>\n<code>%s</code>",
	VerifyHowTo:   "To check a deck, hash the text in its box: its SHA-256 must equal the hash shown during the game.",
	VerifyNone:    "No deck of game %s is kept.",
	VerifyUsage:   "/verify N shows the decks of game N.",

	SettingsTitle:        "⚙️ Table settings",
	SettingsFooter:       "Admins change them with the buttons; a game in progress keeps its settings.",
	SettingsAdminOnly:    "Only chat admins can change the table.",
	SettingsSaved:        "Saved.",
	SettingsSavedInGame:  "Saved. The game in progress keeps its settings.",
	SettingsInvalid:      "Not valid: %s",
	SettingsBadValue:     "%s is not a value for %s.",
	SettingsUnknownField: "There is no setting %s. The settings: stake, entry, bets, turn, lobby, knocks, lang.",
	SettingsUsage:        "To change a setting: /settings stake 25 (or entry, bets, turn, lobby, knocks, lang).",
	FieldStake:           "Stake",
	FieldEntry:           "Entry limit",
	FieldBets:            "Bets",
	FieldTurn:            "Turn time",
	FieldLobby:           "Lobby time",
	FieldKnocks:          "Knocks",
	FieldLang:            "Language",
	LangNameEN:           "English",
	LangNameRU:           "Русский",

	ProblemStake:           "the stake must be from %s to %s",
	ProblemEntryBelowStake: "the entry limit %s is below the stake %s",
	ProblemEntryTooLarge:   "the entry limit must be at most %s",
	ProblemBetCount:        "choose 1 to %s bets",
	ProblemBetOption:       "%s is out of range: x1 to x%s, bank/1 to bank/%s",
	ProblemBetTwice:        "the bet %s is there twice",
	ProblemBetSyntax:       "write bets as x1 x2 x5 bank/2 bank",
	ProblemTurn:            "the turn time must be from %s to %s",
	ProblemLobby:           "the lobby time must be from %s to %s",
	ProblemKnocks:          "knocks must be from %s to %s",
	ProblemNumber:          "%s is not a whole number",

	DescNewGame:  "Open a table, or show the open one",
	DescLeave:    "Stand up from the table",
	DescBalance:  "Your chips in this chat",
	DescBonus:    "Free chips once a day when you run low",
	DescRules:    "The rules in short",
	DescHelp:     "What I do and my commands",
	DescSettings: "Table settings (admins change them)",
	DescCancel:   "Cancel the game, refunding every bet (admins)",
	DescLang:     "Language: en or ru",
	DescVerify:   "Check the decks of a game",

	UnitSeconds: "%s s",
	UnitMinutes: "%s min",
	UnitHours:   "%s h",
	NounChips:   "chip|chips",
	RankJack:    "J",
	RankQueen:   "Q",
	RankKing:    "K",
	RankAce:     "A",

	TopTitle:       "🏆 <b>Top players</b>",
	TopLine:        "%s. %s — %s · net %s · games: %s",
	TopEmpty:       "Nobody has played here yet: /newgame opens a table.",
	StatsText:      "📊 <b>%s</b>\nGames: %s (as banker: %s)\nDuels: %s won, %s lost (%s)\nBiggest win: %s\nNet result: %s\nGolden 21: %s · Five pictures: %s\nBalance: %s",
	StatsNone:      "%s hasn't played here yet.",
	HistoryTitle:   "🧾 %s, your last chip movements (UTC):",
	HistoryLine:    "%s  %s · %s → %s",
	HistoryEmpty:   "%s, you have no chip movements here yet.",
	LedgerStart:    "starting chips",
	LedgerBonus:    "daily bonus",
	LedgerOwner:    "grant",
	LedgerStake:    "stake as banker, game %s",
	LedgerBet:      "bet, game %s",
	LedgerWin:      "won, game %s",
	LedgerRefund:   "refund, game %s",
	LedgerBank:     "bank, game %s",
	AuditOK:        "✅ The chips add up: balances %s + on tables %s = granted %s.",
	AuditBad:       "❌ The chips do not add up: balances %s + on tables %s, granted %s, in the ledger %s; problems found: %s, listed in the bot's log.",
	KickUsage:      "Reply to a player's message with /kick to stand them up.",
	KickDone:       "%s will be stood up at the next safe moment.",
	KickNotSeated:  "%s is not at the table.",
	GrantUsage:     "Reply to a user's message with /grant AMOUNT.",
	GrantDone:      "%s got %s. Balance: %s.",
	GrantOwnerOnly: "Only the bot's owners can grant chips.",
	GrantBad:       "The amount must be a whole number from 1 to %s.",
	DescTop:        "The chat's leaderboard",
	DescStats:      "Your stats, or of the user you reply to",
	DescHistory:    "Your last chip movements",
	DescAudit:      "Check that the chat's chips add up (admins)",
	DescKick:       "Stand a player up: reply to them (admins)",
}
