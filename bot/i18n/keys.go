package i18n

// Key names one string of the catalogues. Strings whose key starts with Pop,
// Btn, Desc, Bet, Unit, Noun, Rank or LangName, and the texts of the
// settings (SettingName and the others of setting.go, whose keys are made
// from a setting's key), are plain text with no HTML special characters
// (pop-ups, buttons, command descriptions, and the pieces other strings
// are built from); every other string is Telegram HTML, and the arguments
// put into it must be escaped by the caller. Placeholders are %s (or
// %[n]s): numbers, names and cards come in already formatted.
type Key string

// The table message.
const (
	// TableTitleLobby heads an open table.
	TableTitleLobby Key = "table.title.lobby"
	// TableTitleGame heads a game: the circle and the bank.
	TableTitleGame Key = "table.title.game"
	// TableTitleClosed heads a closed table.
	TableTitleClosed Key = "table.title.closed"
	// TableLimits: the stake, the entry limit (a balance a player must
	// have, not a fee: "min. balance"), the fewest players and the most (a
	// Count of NounPlayers, which the range agrees with).
	TableLimits Key = "table.limits"
	// TableSeated heads the seats of the lobby: taken and total.
	TableSeated Key = "table.seated"
	// TableNobody: the lobby has no seated player.
	TableNobody Key = "table.nobody"
	// TableHint: who may sit (the entry limit) and who starts.
	TableHint Key = "table.hint"
	// TableHintAuto: who may sit (the entry limit), and that the game
	// starts by itself when the last seat is taken (game.Settings.AutoStart)
	// or when a seated player starts it.
	TableHintAuto Key = "table.hint.auto"
	// TableFull: every seat of the lobby is taken, and who starts.
	TableFull Key = "table.full"
	// TableCloses: the time the lobby closes (a tg-time).
	TableCloses Key = "table.closes"
	// TableBanker: the banker's name.
	TableBanker Key = "table.banker"
	// TableKnocks: knocks so far and the most a game may have.
	TableKnocks Key = "table.knocks"
	// TableSeatBet: the bet a player has on the table.
	TableSeatBet Key = "table.seat.bet"
	// TableSeatBetting marks the player to bet: name, the time left of the
	// turn (i18n.Countdown).
	TableSeatBetting Key = "table.seat.betting"
	// TableSeatDrawing marks the player drawing: name, the time left of
	// the turn (i18n.Countdown).
	TableSeatDrawing Key = "table.seat.drawing"

	// TurnNudge, a message of its own in reply to the table message, tells
	// the player to move that it is their turn, so that their phone
	// buzzes: their name (a tg://user mention), the time left.
	TurnNudge Key = "turn.nudge"

	// TableSeatSatOut: the player sits this circle out.
	TableSeatSatOut Key = "table.seat.satout"
	// TableSeatPlayed: the player's duel of this circle is over.
	TableSeatPlayed Key = "table.seat.played"
	// TableSeatLeaving: the player left; the seat is freed after the duel.
	TableSeatLeaving Key = "table.seat.leaving"
	// TableDeck: the SHA-256 of the deck in play.
	TableDeck Key = "table.deck"
	// TableDeckCheck: the short SHA-256 of the last deck revealed, the game
	// number in digits only: it ends "/verify_%s", a command a reader taps
	// (Telegram sends only a command's word, so the number is part of it).
	TableDeckCheck Key = "table.deck.check"
	// TableDeckCheckInline: the deck to check on an inline table, whose
	// chat the bot cannot answer /verify in: the short hash, and the
	// button that tells more.
	TableDeckCheckInline Key = "table.deckcheck.inline"
	// TableDeckChecks: the decks of a game of several circles: how many (a
	// Count of NounDecks), the game number as in TableDeckCheck. Their
	// hashes are behind /verify: a record carries no line of hex.
	TableDeckChecks Key = "table.deck.checks"
)

// The duel log of the table message.
const (
	// LogBanker names the banker's hand in a duel line.
	LogBanker Key = "log.banker"
	// LogPlayerWins: the player outscored the banker: name, amount.
	LogPlayerWins Key = "log.player.wins"
	// LogBankerWins: the banker outscored the player: amount.
	LogBankerWins Key = "log.banker.wins"
	// LogTie: a tie, won by the banker: amount.
	LogTie Key = "log.tie"
	// LogBankerBust: the banker went over 21: name, amount.
	LogBankerBust Key = "log.banker.bust"
	// LogPlayerBust: the player went over 21: amount.
	LogPlayerBust Key = "log.player.bust"
	// LogTwentyOne: the player reached 21: name, amount.
	LogTwentyOne Key = "log.twentyone"
	// LogGolden: two aces: name, amount.
	LogGolden Key = "log.golden"
	// LogFivePictures: five pictures: name, amount.
	LogFivePictures Key = "log.five"
	// LogForfeit: the player left after betting: amount.
	LogForfeit Key = "log.forfeit"
	// LogKnock: the bank grew from, to.
	LogKnock Key = "log.knock"
	// LogKnockTo: the bank grew to (when where it came from is not shown).
	LogKnockTo Key = "log.knock.to"

	// The record of timeouts and circles sat out, and the marker of lines
	// left out to fit, which keeps the bank adding up.

	// LogTimedOut marks a duel the player stood by running out of time.
	LogTimedOut Key = "log.timedout"
	// LogSatOutTimeout: the player ran out of time to bet.
	LogSatOutTimeout Key = "log.satout.timeout"
	// LogSatOutNoChips: the player's balance covered no bet.
	LogSatOutNoChips Key = "log.satout.nochips"
	// LogSatOutLeft: the player left before betting.
	LogSatOutLeft Key = "log.satout.left"
	// LogSatOutKicked: an admin stood the player up before they bet.
	LogSatOutKicked Key = "log.satout.kicked"
	// LogSatOutBroken: the bank was broken before the player's duel.
	LogSatOutBroken Key = "log.satout.bankbroken"
	// LogSatOutBanker: the banker left, which ended the game before
	// the player's duel was over (a bet on the table came back).
	LogSatOutBanker Key = "log.satout.bankerleft"
	// LogSatOutCancel: an admin cancelled the game before the player's
	// duel was over (a bet on the table came back).
	LogSatOutCancel Key = "log.satout.cancelled"
	// LogTrimmed stands for the older lines left out to fit the message:
	// how many results (Count of NounLogResults), the bank before them,
	// the bank after them.
	LogTrimmed Key = "log.trimmed"
	// LogTrimmedSame is LogTrimmed when the hidden results left the bank
	// as it was: how many, the bank.
	LogTrimmedSame Key = "log.trimmed.same"
	// NounLogResults: the plural forms of "earlier result", as NounChips.
	NounLogResults Key = "noun.logresults"
)

// The end of a game and a closed table.
const (
	// GameOverTakes: the banker took the bank: name, the bank taken, the
	// stake put into it, what the game gave the banker (signed, as
	// i18n.Signed writes it), so that a bank smaller than the stake reads
	// as the loss it is.
	GameOverTakes Key = "gameover.takes"
	// GameOverBroken: the bank was broken: the banker's name, the stake
	// lost, what the game gave the banker (signed).
	GameOverBroken Key = "gameover.broken"
	// SummaryTitle heads the record a finished game leaves: the game's number.
	SummaryTitle Key = "gameover.summary"
	// GameOverLast heads the results of the last game on a closed table.
	GameOverLast Key = "gameover.last"
	// ClosedTimeout: nobody started the lobby in time.
	ClosedTimeout Key = "closed.timeout"
	// ClosedCancelled: an admin cancelled.
	ClosedCancelled Key = "closed.cancelled"
	// ClosedEmpty: the last player left.
	ClosedEmpty Key = "closed.empty"
	// ClosedEntryLimit: nobody seated could pay the entry limit.
	ClosedEntryLimit Key = "closed.entry"
	// ClosedOther: closed for another reason.
	ClosedOther Key = "closed.other"
	// ClosedHint: how to open a new table.
	ClosedHint Key = "closed.hint"
	// TableMoved replaces an old table message the bot could not delete
	// (Telegram deletes only within 48 hours): the table is in a newer one.
	TableMoved Key = "table.moved"
)

// Achievements: their names, the line of a game's record that announces
// them, and the line of /stats that lists them.
const (
	// AchFirstWin names award.FirstWin.
	AchFirstWin Key = "ach.first_win"
	// AchGolden21 names award.Golden21.
	AchGolden21 Key = "ach.golden21"
	// AchFivePictures names award.FivePictures.
	AchFivePictures Key = "ach.five_pictures"
	// AchBrokeBank names award.BrokeBank.
	AchBrokeBank Key = "ach.broke_bank"
	// AchKnock names award.Knock.
	AchKnock Key = "ach.knock"
	// AchThreeKnocks names award.ThreeKnocks.
	AchThreeKnocks Key = "ach.three_knocks"
	// AchFatBank names award.FatBank.
	AchFatBank Key = "ach.fat_bank"
	// AchCleanSweep names award.CleanSweep.
	AchCleanSweep Key = "ach.clean_sweep"
	// AchSteelNerves names award.SteelNerves.
	AchSteelNerves Key = "ach.steel_nerves"
	// AchOneTooMany names award.OneTooMany.
	AchOneTooMany Key = "ach.one_too_many"
	// AchComeback names award.Comeback.
	AchComeback Key = "ach.comeback"
	// AchRegular names award.Regular.
	AchRegular Key = "ach.regular"
	// AchVeteran names award.Veteran.
	AchVeteran Key = "ach.veteran"
	// AwardLine announces in a game's record what a player earned in it:
	// name, the achievements' names (joined by AwardSep).
	AwardLine Key = "award.line"
	// AwardSep separates the names of achievements in a list.
	AwardSep Key = "award.sep"
	// StatsAchievements lists a user's achievements in /stats: how many,
	// of how many, their names (joined by AwardSep).
	StatsAchievements Key = "cmd.stats.ach"
	// StatsNoAchievements: the user has none yet: how many there are.
	StatsNoAchievements Key = "cmd.stats.ach.none"
)

// Buttons and bet labels.
const (
	// BtnJoin sits down in the lobby.
	BtnJoin Key = "btn.join"
	// BtnLeave stands up.
	BtnLeave Key = "btn.leave"
	// BtnStart starts the first game of a lobby.
	BtnStart Key = "btn.start"
	// BtnPlayAgain starts the next game after one ended.
	BtnPlayAgain Key = "btn.again"
	// BtnHit draws a card.
	BtnHit Key = "btn.hit"
	// BtnStand stops drawing.
	BtnStand Key = "btn.stand"
	// BtnNewTable opens a table where one closed.
	BtnNewTable Key = "btn.newtable"
	// BtnTop shows the chat's leaderboard as an alert, on an inline table.
	BtnTop Key = "btn.top"
	// BtnVerify shows the decks of the last game.
	BtnVerify Key = "btn.verify"
	// BetBank names the whole bank as a bet option.
	BetBank Key = "bet.bank"
	// BetAllIn names a bet capped at the player's whole balance.
	BetAllIn Key = "bet.allin"
	// BetShare names a share of the bank as a bet: the share ("½").
	BetShare Key = "bet.share"
)

// Pop-ups: answers to button presses, under 200 characters, plain text.
const (
	// PopTurn: someone else's turn: their name.
	PopTurn Key = "pop.turn"
	// PopOutdated: a button of an older version of the table.
	PopOutdated Key = "pop.outdated"
	// PopNeedChips: the entry limit in chips, the balance, the daily bonus.
	PopNeedChips Key = "pop.needchips"
	// PopSeated: already seated.
	PopSeated Key = "pop.seated"
	// PopFull: every seat is taken.
	PopFull Key = "pop.full"
	// PopNotSeated: the user does not sit at the table.
	PopNotSeated Key = "pop.notseated"
	// PopBanker: the banker pressed a player's button (the game draws the
	// banker's hand).
	PopBanker Key = "pop.banker"
	// PopNeedPlayers: the fewest players a game starts with (a Count of
	// NounPlayers).
	PopNeedPlayers Key = "pop.needplayers"
	// PopInProgress: a game is being played.
	PopInProgress Key = "pop.inprogress"
	// PopNotOffered: a bet not offered.
	PopNotOffered Key = "pop.notoffered"
	// PopNotNow: an action not allowed in this phase.
	PopNotNow Key = "pop.notnow"
	// PopNoTable: no table is open.
	PopNoTable Key = "pop.notable"
	// PopBadButton: callback data that is not a button of this bot.
	PopBadButton Key = "pop.badbutton"
	// PopVerifySent: "Check the deck" pressed again soon after the check
	// was sent.
	PopVerifySent Key = "pop.verifysent"
	// PopVerifyWait: "Check the deck" of another game pressed soon after a
	// check was sent.
	PopVerifyWait Key = "pop.verifywait"
	// PopAnonymous: an anonymous admin tried to play.
	PopAnonymous Key = "pop.anonymous"
	// PopJoined: the toast of a join.
	PopJoined Key = "pop.joined"
	// PopLeft: the toast of a leave.
	PopLeft Key = "pop.left"
	// PopLeftBet: the toast of a leave that lost the player's bet on the
	// table to the bank: the bet.
	PopLeftBet Key = "pop.left.bet"
	// PopBet: the toast of a bet: the amount.
	PopBet Key = "pop.bet"
	// PopHit: the card drawn and the new score.
	PopHit Key = "pop.hit"
	// PopHitBust: the card drawn and the score over 21.
	PopHitBust Key = "pop.hit.bust"
	// PopHitTwentyOne: the card drawn that made 21.
	PopHitTwentyOne Key = "pop.hit.21"
	// PopHitGolden: the second ace.
	PopHitGolden Key = "pop.hit.golden"
	// PopHitFivePictures: the fifth picture.
	PopHitFivePictures Key = "pop.hit.five"
	// PopStand: the score the player stood at, when the duel's result is
	// not known.
	PopStand Key = "pop.stand"
	// PopBetCard: the toast of a bet: the amount, the player's card and
	// its points, and what comes next.
	PopBetCard Key = "pop.bet.card"
	// PopStandWin: the player stood at a score, the banker scored less:
	// the player's score, the banker's, the chips won.
	PopStandWin Key = "pop.stand.win"
	// PopStandBankerBust: the player stood, the banker went over 21: the
	// player's score, the banker's, the chips won.
	PopStandBankerBust Key = "pop.stand.bankerbust"
	// PopStandTie: the player stood, the banker scored the same, and a tie
	// goes to the bank: the score, the banker's, the chips lost.
	PopStandTie Key = "pop.stand.tie"
	// PopStandLose: the player stood, the banker scored more: the player's
	// score, the banker's, the chips lost.
	PopStandLose Key = "pop.stand.lose"
	// PopStartYou: the toast of a start when the presser bets first: their
	// card and its points.
	PopStartYou Key = "pop.start.you"
	// PopStartOther: the toast of a start when another player bets first:
	// their name.
	PopStartOther Key = "pop.start.other"
	// PopAdminOnly: an admin-only action.
	PopAdminOnly Key = "pop.adminonly"
	// PopAdminCheckFailed: Telegram did not say whether the presser of an
	// admin button is an admin.
	PopAdminCheckFailed Key = "pop.admincheckfailed"
	// PopError: an internal error.
	PopError Key = "pop.error"
	// PopInvalid: an invalid value: the reason.
	PopInvalid Key = "pop.invalid"
	// PopSaved: a setting saved.
	PopSaved Key = "pop.saved"
	// PopSavedSetting: a setting saved with a settings panel's button:
	// the setting as the panel lists it ("Stake: 25").
	PopSavedSetting Key = "pop.saved.setting"
	// PopSettingsOutdated: a button of an older settings message.
	PopSettingsOutdated Key = "pop.settings.outdated"
)

// Answers to commands.
const (
	// Balance: the user's name, the balance in chips.
	Balance Key = "cmd.balance"
	// BonusGranted: the name, the bonus in chips, the new balance.
	BonusGranted Key = "cmd.bonus.granted"
	// BonusWait: the name, the time until the next bonus.
	BonusWait Key = "cmd.bonus.wait"
	// BonusNotNeeded: the name, the entry limit, the balance.
	BonusNotNeeded Key = "cmd.bonus.notneeded"
	// BonusNotNeededOnTable: the name, the entry limit, the balance, the
	// user's chips on the chat's tables.
	BonusNotNeededOnTable Key = "cmd.bonus.notneeded.ontable"
	// Help: what the bot does, above the lines of its commands (HelpNewGame
	// and on).
	Help Key = "cmd.help"
	// HelpPrivate is Help in a private chat, where its user plays the
	// house (solo play).
	HelpPrivate Key = "cmd.help.private"
	// Rules: the rules in short.
	Rules Key = "cmd.rules"
	// StartPrivate: /start in a private chat: solo play against the house,
	// and how to add the bot to a group.
	StartPrivate Key = "cmd.start.private"
	// GroupsOnly: a command for groups only sent in a private chat.
	GroupsOnly Key = "cmd.groupsonly"
	// Welcome: the bot was added to a group: the starting chips.
	Welcome Key = "cmd.welcome"
	// AnonymousPlay: a game command sent as an anonymous admin.
	AnonymousPlay Key = "cmd.anonymous"
	// ChatSender: a command sent on behalf of a channel, which names no
	// person to play or manage the table.
	ChatSender Key = "cmd.chatsender"
	// ReplyToChat: a command in reply to a message sent on behalf of a
	// chat (a channel, or the group by an anonymous admin), which names
	// no player.
	ReplyToChat Key = "cmd.replytochat"
	// QuotaOver: a member past their budget of answers (a few a minute):
	// when they get answers again. Said once, then nothing until then.
	QuotaOver Key = "cmd.quotaover"
	// UnknownSender: a command whose sender the bot cannot tell.
	UnknownSender Key = "cmd.unknownsender"
	// AdminCheckFailed: Telegram did not say whether the sender of an
	// admin command is an admin.
	AdminCheckFailed Key = "cmd.admincheckfailed"
	// NewGameOpen: /newgame while a table is open.
	NewGameOpen Key = "cmd.newgame.open"
	// LeaveDone: the name of who left the lobby.
	LeaveDone Key = "cmd.leave.done"
	// LeaveInGame: the name of who left during a game.
	LeaveInGame Key = "cmd.leave.ingame"
	// CancelDone: a game was cancelled.
	CancelDone Key = "cmd.cancel.done"
	// CancelLobby: an open table was closed.
	CancelLobby Key = "cmd.cancel.lobby"
	// CancelNothing: nothing to cancel.
	CancelNothing Key = "cmd.cancel.nothing"
	// LangCurrent: the chat's language (its name).
	LangCurrent Key = "cmd.lang.current"
	// LangSet: the language set (its name).
	LangSet Key = "cmd.lang.set"
	// LangUnknown: a language the bot does not speak (as typed).
	LangUnknown Key = "cmd.lang.unknown"
	// VerifyTitle: the game whose decks follow.
	VerifyTitle Key = "cmd.verify.title"
	// VerifyDeck: a deck's number, its SHA-256 and its preimage (the text
	// to hash), each in a box of its own under a label that names it, the
	// preimage at the start of its line.
	VerifyDeck Key = "cmd.verify.deck"
	// VerifyHowTo: how to check a deck: which box to hash, and against
	// which.
	VerifyHowTo Key = "cmd.verify.howto"
	// VerifyNone: no deck is kept for the game.
	VerifyNone Key = "cmd.verify.none"
	// VerifyNoSuchGame: the table never had the game asked for: its
	// number, the number of the table's last game.
	VerifyNoSuchGame Key = "cmd.verify.nosuchgame"
	// VerifyNoGameYet: the table has had no game yet.
	VerifyNoGameYet Key = "cmd.verify.nogameyet"
	// VerifyUsage: how to call /verify.
	VerifyUsage Key = "cmd.verify.usage"
)

// The /settings message and answers.
const (
	// SettingsTitle heads the settings message.
	SettingsTitle Key = "settings.title"
	// SettingsFooter ends the settings message drawn read-only, for a
	// member who is no admin.
	SettingsFooter Key = "settings.footer"
	// SettingsChoose heads an admin's settings panel, above the list of
	// the settings as buttons.
	SettingsChoose Key = "settings.choose"
	// SettingsBetsToggle: under the bet options' choices, that they are
	// toggles.
	SettingsBetsToggle Key = "settings.bets.toggle"
	// BtnSettingsBack goes back from a setting's choices to the list.
	BtnSettingsBack Key = "btn.settings.back"
	// SettingsAdminOnly: a non-admin tried to change a setting.
	SettingsAdminOnly Key = "settings.adminonly"
	// LangAdminOnly: a non-admin tried to change the language.
	LangAdminOnly Key = "cmd.lang.adminonly"
	// SettingsSaved: a setting saved.
	SettingsSaved Key = "settings.saved"
	// SettingsSavedInGame: a setting saved while a game is played.
	SettingsSavedInGame Key = "settings.saved.ingame"
	// SettingsInvalid: an invalid value: the reason.
	SettingsInvalid Key = "settings.invalid"
	// SettingsBadValue: a value that does not parse: the value, the field.
	SettingsBadValue Key = "settings.badvalue"
	// SettingsUnknownField: a field that does not exist (as typed), and
	// the keys of the settings there are.
	SettingsUnknownField Key = "settings.unknownfield"
	// SettingsUsage: how to change a setting by command, and the keys of
	// the settings.
	SettingsUsage Key = "settings.usage"
	// LangNameEN names English.
	LangNameEN Key = "langname.en"
	// LangNameRU names Russian.
	LangNameRU Key = "langname.ru"
	// LangNameUK names Ukrainian.
	LangNameUK Key = "langname.uk"
	// LangNameInText names the catalogue's own language within a sentence
	// of it ("Language: English.", «Язык: русский.», «Мова: українська.»).
	LangNameInText Key = "langname.intext"
)

// Why settings are invalid (the argument of SettingsInvalid and PopInvalid),
// beside each setting's own (see SettingRange and SettingBelow).
const (
	// ProblemBetCount: the most bet options.
	ProblemBetCount Key = "problem.bet.count"
	// ProblemBetOption: a bet option out of bounds: the option, the largest
	// stake multiple and bank divisor.
	ProblemBetOption Key = "problem.bet.option"
	// ProblemBetTwice: a bet option given twice: the option.
	ProblemBetTwice Key = "problem.bet.twice"
	// ProblemBetSyntax: how bet options are written.
	ProblemBetSyntax Key = "problem.bet.syntax"
	// ProblemNumber: not a whole number: the value.
	ProblemNumber Key = "problem.number"
	// ProblemLanguage: not a language code: the value.
	ProblemLanguage Key = "problem.language"
)

// /notify: a private message when a table opens in a group the user
// follows.
const (
	// NotifyOn: the name of who follows the group now.
	NotifyOn Key = "notify.on"
	// NotifyOff: the name of who stopped following the group.
	NotifyOff Key = "notify.off"
	// NotifyStartFirst: the name of who asked to follow the group with no
	// private chat with the bot; BtnNotifyStart, a deep link, starts one.
	NotifyStartFirst Key = "notify.startfirst"
	// NotifyTooMany: the most groups a user may follow.
	NotifyTooMany Key = "notify.toomany"
	// NotifyFollowed: the group's title: followed from the deep link.
	NotifyFollowed Key = "notify.followed"
	// NotifyFollowedAlready: the group's title: the deep link of a group
	// followed before.
	NotifyFollowedAlready Key = "notify.followed.already"
	// NotifyBadLink: a deep link that names no group.
	NotifyBadLink Key = "notify.badlink"
	// NotifyNotMember: the deep link of a group the user is not in.
	NotifyNotMember Key = "notify.notmember"
	// NotifyNoGroup: the deep link of a group the bot is not in.
	NotifyNoGroup Key = "notify.nogroup"
	// NotifyCheckFailed: Telegram did not say whether the user is in the
	// deep link's group.
	NotifyCheckFailed Key = "notify.checkfailed"
	// NotifyList heads the groups the user follows, in private: one
	// NotifyListLine each, then NotifyListHint.
	NotifyList Key = "notify.list"
	// NotifyListLine: a group's title.
	NotifyListLine Key = "notify.list.line"
	// NotifyListHint: how to stop following one, and to follow another.
	NotifyListHint Key = "notify.list.hint"
	// NotifyListEmpty: the user follows no group: how to follow one.
	NotifyListEmpty Key = "notify.list.empty"
	// NotifyUsage: /notify in a group takes no argument.
	NotifyUsage Key = "notify.usage"
	// NoticeOpened begins the private message that a table opened: the
	// group's title, the opener's name. TableLimits and TableCloses follow.
	NoticeOpened Key = "notice.opened"
	// NoticeNoLink ends a notice of a basic group, which gives no link to
	// its messages.
	NoticeNoLink Key = "notice.nolink"
	// BtnNotifyStart: the deep link that opens the private chat with the
	// bot to start it.
	BtnNotifyStart Key = "btn.notify.start"
	// BtnOpenTable: the notice's link to the table message.
	BtnOpenTable Key = "btn.opentable"
	// BtnUnfollow: a group's title: the button that stops following it.
	BtnUnfollow Key = "btn.unfollow"
	// PopUnfollowed: the user stopped following a group (the list shows
	// which: it is edited).
	PopUnfollowed Key = "pop.unfollowed"
	// PopNotFollowing: a press to stop following a group not followed.
	PopNotFollowing Key = "pop.notfollowing"
	// DescNotify describes /notify.
	DescNotify Key = "desc.notify"
	// HelpNotify: /notify.
	HelpNotify Key = "help.notify"
)

// Command descriptions for setMyCommands, plain text.
const (
	// DescNewGame describes /newgame.
	DescNewGame Key = "desc.newgame"
	// DescLeave describes /leave.
	DescLeave Key = "desc.leave"
	// DescBalance describes /balance.
	DescBalance Key = "desc.balance"
	// DescBonus describes /bonus.
	DescBonus Key = "desc.bonus"
	// DescRules describes /rules.
	DescRules Key = "desc.rules"
	// DescHelp describes /help.
	DescHelp Key = "desc.help"
	// DescSettings describes /settings.
	DescSettings Key = "desc.settings"
	// DescCancel describes /cancel.
	DescCancel Key = "desc.cancel"
	// DescLang describes /lang.
	DescLang Key = "desc.lang"
	// DescVerify describes /verify.
	DescVerify Key = "desc.verify"
)

// The lines of /help, one per command it lists.
const (
	// HelpNewGame: /newgame.
	HelpNewGame Key = "help.newgame"
	// HelpLeave: /leave.
	HelpLeave Key = "help.leave"
	// HelpBalance: /balance.
	HelpBalance Key = "help.balance"
	// HelpBonus: /bonus.
	HelpBonus Key = "help.bonus"
	// HelpRules: /rules.
	HelpRules Key = "help.rules"
	// HelpSettings: /settings.
	HelpSettings Key = "help.settings"
	// HelpCancel: /cancel.
	HelpCancel Key = "help.cancel"
	// HelpLang: /lang.
	HelpLang Key = "help.lang"
	// HelpVerify: /verify.
	HelpVerify Key = "help.verify"
	// HelpTop: /top.
	HelpTop Key = "help.top"
	// HelpStats: /stats.
	HelpStats Key = "help.stats"
	// HelpHistory: /history.
	HelpHistory Key = "help.history"
	// HelpAudit: /audit.
	HelpAudit Key = "help.audit"
	// HelpKick: /kick.
	HelpKick Key = "help.kick"
)

// The pieces the helpers build numbers, durations and cards from.
const (
	// UnitSeconds: a number of seconds.
	UnitSeconds Key = "unit.s"
	// UnitMinutes: a number of minutes.
	UnitMinutes Key = "unit.min"
	// UnitHours: a number of hours.
	UnitHours Key = "unit.h"
	// DateMonths: the short names of the months, January first, separated
	// by "|", as a date writes them ("Dec", «дек.», «груд.»).
	DateMonths Key = "date.months"
	// DateDay: a day of the month and the month's short name (DateMonths),
	// in the language's order, joined by a no-break space: "Dec 5",
	// «5 дек.», «5 груд.».
	DateDay Key = "date.day"
	// DateAndTime: a date (DateDay) and a time of day ("01:52").
	DateAndTime Key = "date.time"
	// NounChips: the plural forms of "chip", separated by "|": one and
	// other in English; one, few and many in Russian and Ukrainian.
	NounChips Key = "noun.chips"
	// NounPlayers: the plural forms of "player", as NounChips.
	NounPlayers Key = "noun.players"
	// NounDecks: the plural forms of "deck", as NounChips.
	NounDecks Key = "noun.decks"
	// RankJack is the jack's letter.
	RankJack Key = "rank.j"
	// RankQueen is the queen's letter.
	RankQueen Key = "rank.q"
	// RankKing is the king's letter.
	RankKing Key = "rank.k"
	// RankAce is the ace's letter.
	RankAce Key = "rank.a"
)

// The house: the bot as a player (package game/house).
const (
	// HouseName is the house's name wherever a player's name shows.
	HouseName Key = "house.name"
	// TableSeatHouse marks the house to move: its name (it moves by
	// itself within seconds, so no time is shown).
	TableSeatHouse Key = "table.seat.house"
	// BtnSeatHouse seats the house in the lobby.
	BtnSeatHouse Key = "btn.house.seat"
	// BtnUnseatHouse stands the house up in the lobby.
	BtnUnseatHouse Key = "btn.house.unseat"
	// PopHouseSeated: the house sat down.
	PopHouseSeated Key = "pop.house.seated"
	// PopHouseUnseated: the house stood up.
	PopHouseUnseated Key = "pop.house.unseated"
	// PopHouseAlready: the house already sits at the table.
	PopHouseAlready Key = "pop.house.already"
	// PopHouseAbsent: the house does not sit at the table.
	PopHouseAbsent Key = "pop.house.absent"
	// PopHousePlayersOnly: only a seated player seats or unseats the house.
	PopHousePlayersOnly Key = "pop.house.playersonly"
	// PopHouseInGame: a seated player asked for the house during a
	// game; it sits down only in the lobby.
	PopHouseInGame Key = "pop.house.betweengames"
	// PopHouseStays: a seated player asked to stand the house up
	// during a game; it plays the game to the end.
	PopHouseStays Key = "pop.house.staysingame"
	// PopHouseForbidden: the chat's admins forbade the house.
	PopHouseForbidden Key = "pop.house.forbidden"
	// PopHouseNeedChips: the house cannot meet the entry limit: its
	// balance, the entry limit.
	PopHouseNeedChips Key = "pop.house.needchips"
	// HelpHouse: /house.
	HelpHouse Key = "help.house"
	// HouseUsage: /house takes no argument.
	HouseUsage Key = "house.usage"
	// DescHouse describes /house.
	DescHouse Key = "desc.house"
	// TopHouse: the house's line under the leaderboard: name, balance,
	// net, games.
	TopHouse Key = "cmd.top.house"
)

// Community commands: the leaderboard, stats, history and admin tools.
const (
	// TopTitle: heads the leaderboard.
	TopTitle Key = "cmd.top.title"
	// TopLine: a leaderboard line: rank, name, balance, net, games.
	TopLine Key = "cmd.top.line"
	// TopEmpty: nobody has chips in the chat yet.
	TopEmpty Key = "cmd.top.empty"
	// TopAlertEmpty: the leaderboard of an inline table's chat, which no
	// one played in yet (an alert).
	TopAlertEmpty Key = "inline.topempty"
	// TopAlert: the leaderboard of an inline table's chat, as an alert
	// of at most 200 characters: the players, best first.
	TopAlert Key = "inline.top"
	// InlineTitle: an inline result that posts a table: its stake.
	InlineTitle Key = "inline.title"
	// InlineDescription: what the result's table is: its minimum balance.
	InlineDescription Key = "inline.description"
	// InlineOpenHint: the table an inline result posted, which no press
	// opened yet.
	InlineOpenHint Key = "inline.openhint"
	// GuestHelp: the answer to a guest message that asks for no table:
	// how to ask for one (the bot's username).
	GuestHelp Key = "inline.guesthelp"
	// PopInlineOnly: a button of a chat's message pressed on an inline
	// table, or the other way round.
	PopInlineOnly Key = "inline.only"
	// StatsText: a user"s stats: name, games, as banker, duels won, lost, win rate, biggest win, net, Golden 21s, Five pictures, balance.
	StatsText Key = "cmd.stats"
	// StatsNone: the user has not played in the chat: name.
	StatsNone Key = "cmd.stats.none"
	// HistoryTitle: heads a user"s chip movements: name.
	HistoryTitle Key = "cmd.history.title"
	// HistoryLine: one movement: time, signed amount, what caused it, the balance after.
	HistoryLine Key = "cmd.history.line"
	// HistoryEmpty: no movement yet: name.
	HistoryEmpty Key = "cmd.history.empty"
	// LedgerStart: starting chips.
	LedgerStart Key = "ledger.start"
	// LedgerBonus: the daily bonus.
	LedgerBonus Key = "ledger.bonus"
	// LedgerOwner: a grant by the bot"s owner.
	LedgerOwner Key = "ledger.owner"
	// LedgerStake: the stake as banker: the game.
	LedgerStake Key = "ledger.stake"
	// LedgerBet: a bet: the game.
	LedgerBet Key = "ledger.bet"
	// LedgerWin: a won duel, shown with what it won (the payout less the
	// bet, as the toast and the record say): the game.
	LedgerWin Key = "ledger.win"
	// LedgerWinBack: the payout of a won duel whose bet /history does
	// not show beside it: what the duel won, the bet returned, the game.
	LedgerWinBack Key = "ledger.win.back"
	// LedgerRefund: a refund: the game.
	LedgerRefund Key = "ledger.refund"
	// LedgerBank: the bank to the banker: the game.
	LedgerBank Key = "ledger.bank"
	// AuditOK: the chips add up: balances, on tables, granted.
	AuditOK Key = "cmd.audit.ok"
	// AuditBad: the chips do not add up: balances, on tables, granted, in
	// the ledger, how many problems (listed in the log, in English).
	AuditBad Key = "cmd.audit.bad"
	// KickUsage: how to use /kick.
	KickUsage Key = "cmd.kick.usage"
	// KickDone: the player will be stood up: name.
	KickDone Key = "cmd.kick.done"
	// KickNotSeated: the player is not at the table: name.
	KickNotSeated Key = "cmd.kick.notseated"
	// GrantUsage: how to use /grant.
	GrantUsage Key = "cmd.grant.usage"
	// GrantDone: a grant: name, amount, new balance.
	GrantDone Key = "cmd.grant.done"
	// GrantOwnerOnly: a non-owner tried to grant.
	GrantOwnerOnly Key = "cmd.grant.owneronly"
	// GrantBad: a bad amount: the largest.
	GrantBad Key = "cmd.grant.bad"
	// DescTop: describes /top.
	DescTop Key = "desc.top"
	// DescStats: describes /stats.
	DescStats Key = "desc.stats"
	// DescHistory: describes /history.
	DescHistory Key = "desc.history"
	// DescAudit: describes /audit.
	DescAudit Key = "desc.audit"
	// DescKick: describes /kick.
	DescKick Key = "desc.kick"
)

// Solo play: the table of a private chat, where its user plays the house.
const (
	// SoloLimits heads a solo lobby instead of TableLimits: the stake, the
	// entry limit (as TableLimits names it).
	SoloLimits Key = "solo.limits"
	// SoloCloses: the time a solo lobby closes (a tg-time).
	SoloCloses Key = "solo.closes"
	// SoloHouseAbsent: the house is not at the solo table, and may sit.
	SoloHouseAbsent Key = "solo.house.absent"
	// ClosedSolo: the player closed their solo table.
	ClosedSolo Key = "closed.solo"
	// BtnClose closes a solo table: its player leaves, and the house
	// with them.
	BtnClose Key = "btn.close"
	// PopHouseOffSolo: the player of a solo table turned the house off;
	// also the solo lobby's line then.
	PopHouseOffSolo Key = "pop.house.offsolo"
)
