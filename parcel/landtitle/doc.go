// Package landtitle is the LandTitle contract (SPEC S14) and a small Go client for it:
// one soulbound ERC-721 token per land title that the registry issues, carrying the
// hash of the title's certificate.
//
// # The contract
//
// contracts/LandTitle.sol is ERC-721 (OpenZeppelin Contracts 5) with ERC-5192:
//
//   - Only the registry mints and burns: mint(to, tokenId, certificateHash) and
//     burn(tokenId); anyone else gets NotRegistry(caller). The registry is an immutable
//     set at deployment, and so is the base URI: nothing can be changed afterwards, there
//     is no owner, pauser, proxy or setter (a new registry key or a new public origin
//     means a new deployment).
//   - Every token is locked: locked(tokenId) is true, Locked(tokenId) is emitted at mint,
//     supportsInterface(0xb45a3c0e) is true, and approve, setApprovalForAll,
//     transferFrom and both safeTransferFrom revert with Soulbound(). The internal
//     _update lets only mints and burns through. A change of owner is a burn and a mint
//     under a new id.
//   - A token id is used once: the certificate hash stays readable after the burn, and
//     mint reverts for an id ever minted (TitleAlreadyMinted, TitleAlreadyBurned). A zero
//     hash is refused (ZeroCertificateHash). titleOf(tokenId) returns (holder,
//     certificateHash) and never reverts: (0, 0) unminted, (holder, hash) held, (0, hash)
//     burned.
//   - tokenURI(tokenId) is the base URI followed by the id in decimal, e.g.
//     "https://registry.example/v1/tokens/42"; it reverts for a token not held.
//   - Mint emits Transfer(0, holder, id), Locked(id) and TitleMinted(id, holder, hash);
//     burn emits Transfer(holder, 0, id) and TitleBurned(id, holder, hash).
//
// # Gas
//
// Measured by TestGas, for a first title to a fresh holder:
//
//	                   deploy      mint     burn
//	Osaka (mainnet)  1,094,918    94,742   32,866
//	dev chain        1,534,818   358,802   44,386
//
// The dev chain is the simulated backend and geth --dev, which run every fork including
// EIP-8037's state-growth gas, so new storage (a mint writes three slots) costs more
// there. Gas limits are always estimated, never fixed.
//
// # The client
//
// Deploy and At give a Contract that sends as the registry: Mint and Burn are
// idempotent (a second call returns the receipt of the first transaction and sends
// nothing) and read the chain again after a failure, since another sender may have
// won. NewSimulated runs all of it on go-ethereum's in-process simulated chain.
//
// # Rebuilding
//
// LandTitle.abi, LandTitle.bin, LandTitle.bin-runtime and landtitle_binding.go are
// generated and committed. contracts/build.sh regenerates them (npm ci of the exact
// solc-js and @openzeppelin/contracts in contracts/package-lock.json, compile.mjs,
// then go-ethereum's abigen at go.mod's version); contracts/build.sh --check rebuilds
// into a temporary directory and fails on any byte difference, which CI runs. Needs
// node 20 and npm.
//
//go:generate contracts/build.sh
package landtitle
