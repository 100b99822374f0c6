// Package ethsigtest loads the project's EIP-712 test vectors
// (testdata/veriland_typed_data.json, made with ethers v6 and an independent RFC 8785
// implementation) and checks a hand-written encoder against them. It is for tests only.
package ethsigtest
