package game

// ShuffleWords is the derivation's Fisher–Yates, drawing its words from
// next, for the tests of its rejection sampling.
var ShuffleWords = shuffleWords
