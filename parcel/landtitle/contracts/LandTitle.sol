// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";

/// @title ERC-5192: Minimal Soulbound NFTs
/// @notice A token that is locked can never be transferred. The interface id is 0xb45a3c0e.
/// @dev Declared here, word for word as in https://eips.ethereum.org/EIPS/eip-5192.
interface IERC5192 {
    /// @notice Emitted when the locking status is changed to locked.
    /// @dev If a token is minted and the status is locked, this event should be emitted.
    /// @param tokenId The identifier for a token.
    event Locked(uint256 tokenId);

    /// @notice Emitted when the locking status is changed to unlocked.
    /// @dev LandTitle never emits it: its tokens are locked for their whole life.
    /// @param tokenId The identifier for a token.
    event Unlocked(uint256 tokenId);

    /// @notice Returns the locking status of a Soulbound Token.
    /// @dev SBTs assigned to the zero address are considered invalid, and queries about them do throw.
    /// @param tokenId The identifier for an SBT.
    function locked(uint256 tokenId) external view returns (bool);
}

/// @title LandTitle: one soulbound ERC-721 token per registered land title
/// @notice Each token stands for a land title issued by the registry. The token carries the hash of the
/// title's certificate; the certificate itself, and who owns the land, live in the registry, which is the
/// only account that can mint and burn. A token can never be transferred or approved: a change of owner
/// is a burn of the old title and a mint of a new one, under a new token id.
/// @dev ERC-721 (OpenZeppelin Contracts 5.x) with ERC-5192; every token is locked from its mint.
/// There is no owner, no pauser, no proxy and no setter: the registry address and the base URI are fixed
/// at deployment, so moving the registry key or the public origin means deploying a new contract.
/// A token id is used at most once: a burned title keeps its certificate hash, readable for ever, and its
/// id can never be minted again. Hence `certificateHash(id) != 0 && _ownerOf(id) == address(0)` means burned.
contract LandTitle is ERC721, IERC5192 {
    /// @notice The registry account, the only one that may mint and burn.
    address public immutable registry;

    /// @dev Prefix of every token URI, e.g. "https://registry.example/v1/tokens/".
    string private _tokenBaseURI;

    /// @dev Certificate hash of every title ever minted; kept after the burn.
    mapping(uint256 tokenId => bytes32) private _certificateHashes;

    /// @notice A title was minted: `tokenId` now stands for the certificate whose hash is `certificateHash`.
    /// @dev Emitted with ERC-721's Transfer(0, holder, tokenId) and ERC-5192's Locked(tokenId).
    event TitleMinted(uint256 indexed tokenId, address indexed holder, bytes32 certificateHash);

    /// @notice A title was burned: `tokenId` is void and will never be minted again.
    /// @dev Emitted with ERC-721's Transfer(holder, 0, tokenId). The certificate hash stays readable.
    event TitleBurned(uint256 indexed tokenId, address indexed holder, bytes32 certificateHash);

    /// @notice The caller is not the registry.
    error NotRegistry(address caller);

    /// @notice Titles cannot be transferred or approved (ERC-5192: every token is locked).
    error Soulbound();

    /// @notice `tokenId` is held: a title is minted once.
    error TitleAlreadyMinted(uint256 tokenId);

    /// @notice `tokenId` was burned: a burned title is never minted again.
    error TitleAlreadyBurned(uint256 tokenId);

    /// @notice A title needs the hash of its certificate.
    error ZeroCertificateHash();

    /// @notice The registry cannot be the zero address.
    error ZeroRegistry();

    modifier onlyRegistry() {
        if (msg.sender != registry) revert NotRegistry(msg.sender);
        _;
    }

    /// @param registry_ The registry account, the only one that may mint and burn; fixed for ever.
    /// @param baseURI_ Prefix of the token URIs, the public origin's token path ending in a slash,
    /// e.g. "https://registry.example/v1/tokens/"; fixed for ever (a new origin means a new deployment).
    constructor(address registry_, string memory baseURI_) ERC721("Veriland Land Title", "TITLE") {
        if (registry_ == address(0)) revert ZeroRegistry();
        registry = registry_;
        _tokenBaseURI = baseURI_;
    }

    /// @notice Mints title `tokenId` to `to`, for the certificate whose hash is `certificateHash_`.
    /// @dev Only the registry. Emits Transfer(0, to, tokenId), Locked(tokenId) and TitleMinted. Reverts with
    /// TitleAlreadyMinted or TitleAlreadyBurned for an id that was ever minted, ZeroCertificateHash for a zero
    /// hash, and ERC721InvalidReceiver(0) for `to == 0`. Does not call onERC721Received: a title belongs to
    /// its holder whether or not the holder's contract knows about tokens, and it can never move anyway.
    /// @param to The holder of the title.
    /// @param tokenId The title's id, chosen by the registry.
    /// @param certificateHash_ The hash of the title's certificate; not zero.
    function mint(address to, uint256 tokenId, bytes32 certificateHash_) external onlyRegistry {
        if (certificateHash_ == bytes32(0)) revert ZeroCertificateHash();
        if (_certificateHashes[tokenId] != bytes32(0)) {
            if (_ownerOf(tokenId) == address(0)) revert TitleAlreadyBurned(tokenId);
            revert TitleAlreadyMinted(tokenId);
        }
        _certificateHashes[tokenId] = certificateHash_;
        _mint(to, tokenId);
        emit Locked(tokenId);
        emit TitleMinted(tokenId, to, certificateHash_);
    }

    /// @notice Burns title `tokenId`; its certificate hash stays readable and the id is never minted again.
    /// @dev Only the registry. Emits Transfer(holder, 0, tokenId) and TitleBurned. Reverts with
    /// TitleAlreadyBurned for a burned id and ERC721NonexistentToken for an id never minted.
    /// @param tokenId The title to burn.
    function burn(uint256 tokenId) external onlyRegistry {
        address holder = _ownerOf(tokenId);
        if (holder == address(0)) {
            if (_certificateHashes[tokenId] != bytes32(0)) revert TitleAlreadyBurned(tokenId);
            revert ERC721NonexistentToken(tokenId);
        }
        _burn(tokenId);
        emit TitleBurned(tokenId, holder, _certificateHashes[tokenId]);
    }

    /// @notice The certificate hash of `tokenId`: zero if never minted, kept after a burn. Never reverts.
    /// @param tokenId The title's id.
    /// @return The hash given at mint, or zero.
    function certificateHash(uint256 tokenId) external view returns (bytes32) {
        return _certificateHashes[tokenId];
    }

    /// @notice Everything the chain says about `tokenId`, in one call that never reverts.
    /// @dev Unminted: (0, 0). Held: (holder, hash). Burned: (0, hash).
    /// @param tokenId The title's id.
    /// @return holder The holder, zero when unminted or burned.
    /// @return certificateHash_ The certificate hash, zero when unminted.
    function titleOf(uint256 tokenId) external view returns (address holder, bytes32 certificateHash_) {
        return (_ownerOf(tokenId), _certificateHashes[tokenId]);
    }

    /// @inheritdoc IERC5192
    /// @dev Always true for a held title; reverts with ERC721NonexistentToken otherwise.
    function locked(uint256 tokenId) external view returns (bool) {
        _requireOwned(tokenId);
        return true;
    }

    /// @notice True for ERC-5192 (0xb45a3c0e), ERC-721 (0x80ac58cd), ERC-721 Metadata (0x5b5e139f) and
    /// ERC-165 (0x01ffc9a7).
    /// @param interfaceId The interface identifier, as specified in ERC-165.
    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return interfaceId == type(IERC5192).interfaceId || super.supportsInterface(interfaceId);
    }

    // The four overrides below stay nonpayable, as ERC-721 declares them, so that wallets and bindings
    // send them as transactions rather than call them as views; they are marked virtual only because
    // solc otherwise asks for `pure`. Nothing inherits from LandTitle.

    /// @notice Always reverts with Soulbound: titles cannot be approved.
    function approve(address, uint256) public virtual override {
        revert Soulbound();
    }

    /// @notice Always reverts with Soulbound: titles cannot be approved.
    function setApprovalForAll(address, bool) public virtual override {
        revert Soulbound();
    }

    /// @notice Always reverts with Soulbound: titles cannot be transferred.
    function transferFrom(address, address, uint256) public virtual override {
        revert Soulbound();
    }

    /// @notice Always reverts with Soulbound: titles cannot be transferred.
    /// @dev The three-argument safeTransferFrom calls this one, so it reverts too.
    function safeTransferFrom(address, address, uint256, bytes memory) public virtual override {
        revert Soulbound();
    }

    /// @dev The one path of every ownership change in OpenZeppelin's ERC721: only a mint (from the zero
    /// address) or a burn (to the zero address) passes, so no future internal call can move a title.
    function _update(address to, uint256 tokenId, address auth) internal override returns (address) {
        address from = _ownerOf(tokenId);
        if (from != address(0) && to != address(0)) revert Soulbound();
        return super._update(to, tokenId, auth);
    }

    /// @dev tokenURI(id) is this prefix followed by the id in decimal.
    function _baseURI() internal view override returns (string memory) {
        return _tokenBaseURI;
    }
}
