package outbox

// RetireAfter is retireAfter, for the tests.
const RetireAfter = retireAfter

// GlobalBurst is globalBurst, for the tests.
const GlobalBurst = globalBurst
