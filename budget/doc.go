// Package budget counts and cuts text in model tokens.
//
// Vocabulary:
//   - Token: one unit of the o200k_base byte-pair encoding, whose vocabulary
//     is compiled into the binary (nothing is downloaded at run time).
//   - Budget: a number of tokens a payload may spend; Cut keeps the longest
//     prefix of a text that fits and says whether it cut.
package budget
