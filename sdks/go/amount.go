package intent

import (
	"fmt"
	"math/big"
)

// ParseRawAmount reads a raw token amount (a decimal integer string in base units, as every amount of the
// contract is) into a *big.Int. It refuses what the service refuses: a sign, a decimal point, a leading zero,
// whitespace, or more than 2^256-1.
func ParseRawAmount(s string) (*big.Int, error) {
	if !isDigits(s, 78) || (len(s) > 1 && s[0] == '0') {
		return nil, fmt.Errorf("intent: not a raw amount: %q", s)
	}
	n, _ := new(big.Int).SetString(s, 10)
	if n.BitLen() > 256 {
		return nil, fmt.Errorf("intent: raw amount over 2^256-1: %q", s)
	}
	return n, nil
}

// RawAmount formats a non-negative *big.Int as the contract's raw amount string.
func RawAmount(n *big.Int) string { return n.String() }

// AmountInt is the source's raw amount as a *big.Int.
func (s SourceInput) AmountInt() (*big.Int, error) { return ParseRawAmount(s.Amount) }
