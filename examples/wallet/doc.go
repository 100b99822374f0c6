// Command wallet is a throwaway holder wallet for trying veriland from a shell: it
// makes a key, signs a Sign-In with Ethereum message, and signs the consent typed data
// that GET /consent/{requestId} returns, and, as a parcel's owner, the TransferConsent
// that GET /v1/transfers/{id}/owner-consent returns — what a browser wallet does with
// eth_signTypedData_v4. It also reads a parcel's land title from its chain, as a
// wallet would (ownerOf, locked, certificateHash, tokenURI, and the holder's refused
// transferFrom). Test keys only: the key is printed in the clear.
//
//	go run ./examples/wallet new
//	go run ./examples/wallet siwe -key HEX -nonce N [-origin http://127.0.0.1:8080] [-chain-id 1]
//	curl -s localhost:8080/consent/vrq_… | go run ./examples/wallet consent -key HEX [-decision APPROVED] [-disclose a,b]
//	curl -s localhost:8080/v1/transfers/trf_…/owner-consent | go run ./examples/wallet transfer -key HEX [-decision APPROVED]
//	curl -s localhost:8080/v1/parcels/prc_… -H "Authorization: Bearer …" | go run ./examples/wallet title [-rpc URL]
//	go run ./examples/wallet title -rpc URL -contract 0x… -token ID
package main
