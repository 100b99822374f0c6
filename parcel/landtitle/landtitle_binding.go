// Code generated - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package landtitle

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/event"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = errors.New
	_ = big.NewInt
	_ = strings.NewReader
	_ = ethereum.NotFound
	_ = bind.Bind
	_ = common.Big1
	_ = types.BloomLookup
	_ = event.NewSubscription
	_ = abi.ConvertType
	_ = time.Tick
	_ = context.Background
)

// LandTitleMetaData contains all meta data concerning the LandTitle contract.
var LandTitleMetaData = &bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"registry_\",\"type\":\"address\"},{\"internalType\":\"string\",\"name\":\"baseURI_\",\"type\":\"string\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"}],\"name\":\"ERC721IncorrectOwner\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"operator\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"ERC721InsufficientApproval\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"approver\",\"type\":\"address\"}],\"name\":\"ERC721InvalidApprover\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"operator\",\"type\":\"address\"}],\"name\":\"ERC721InvalidOperator\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"}],\"name\":\"ERC721InvalidOwner\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"}],\"name\":\"ERC721InvalidReceiver\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"ERC721InvalidSender\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"ERC721NonexistentToken\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"}],\"name\":\"NotRegistry\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Soulbound\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"TitleAlreadyBurned\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"TitleAlreadyMinted\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroCertificateHash\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroRegistry\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"approved\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"operator\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"approved\",\"type\":\"bool\"}],\"name\":\"ApprovalForAll\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"Locked\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"holder\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"certificateHash\",\"type\":\"bytes32\"}],\"name\":\"TitleBurned\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"holder\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"certificateHash\",\"type\":\"bytes32\"}],\"name\":\"TitleMinted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"Unlocked\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"burn\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"certificateHash\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"getApproved\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"operator\",\"type\":\"address\"}],\"name\":\"isApprovedForAll\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"locked\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"certificateHash_\",\"type\":\"bytes32\"}],\"name\":\"mint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"ownerOf\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"registry\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"safeTransferFrom\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"name\":\"safeTransferFrom\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"name\":\"setApprovalForAll\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes4\",\"name\":\"interfaceId\",\"type\":\"bytes4\"}],\"name\":\"supportsInterface\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"titleOf\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"holder\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"certificateHash_\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"tokenId\",\"type\":\"uint256\"}],\"name\":\"tokenURI\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	Bin: "0x60a060405234801561000f575f5ffd5b506040516113bd3803806113bd83398101604081905261002e916100fc565b6040518060400160405280601381526020017f566572696c616e64204c616e64205469746c6500000000000000000000000000815250604051806040016040528060058152602001645449544c4560d81b815250815f9081610090919061024f565b50600161009d828261024f565b5050506001600160a01b0382166100c757604051634a100d5960e01b815260040160405180910390fd5b6001600160a01b03821660805260066100e0828261024f565b505050610309565b634e487b7160e01b5f52604160045260245ffd5b5f5f6040838503121561010d575f5ffd5b82516001600160a01b0381168114610123575f5ffd5b60208401519092506001600160401b0381111561013e575f5ffd5b8301601f8101851361014e575f5ffd5b80516001600160401b03811115610167576101676100e8565b604051601f8201601f19908116603f011681016001600160401b0381118282101715610195576101956100e8565b6040528181528282016020018710156101ac575f5ffd5b8160208401602083015e5f602083830101528093505050509250929050565b600181811c908216806101df57607f821691505b6020821081036101fd57634e487b7160e01b5f52602260045260245ffd5b50919050565b601f82111561024a57805f5260205f20601f840160051c810160208510156102285750805b601f840160051c820191505b81811015610247575f8155600101610234565b50505b505050565b81516001600160401b03811115610268576102686100e8565b61027c8161027684546101cb565b84610203565b6020601f8211600181146102ae575f83156102975750848201515b5f19600385901b1c1916600184901b178455610247565b5f84815260208120601f198516915b828110156102dd57878501518255602094850194600190920191016102bd565b50848210156102fa57868401515f19600387901b60f8161c191681555b50505050600190811b01905550565b60805161108e61032f5f395f818161021d01528181610414015261059d015261108e5ff3fe608060405234801561000f575f5ffd5b506004361061011c575f3560e01c806370a08231116100a9578063b88d4fde1161006e578063b88d4fde14610268578063c87b56dd14610276578063d8eac6c714610289578063daf7c166146102a8578063e985e9c5146102fd575f5ffd5b806370a08231146101f75780637b1039991461021857806395d89b411461023f578063a22cb46514610247578063b45a3c0e14610255575f5ffd5b80631e458bee116100ef5780631e458bee1461019d57806323b872dd146101b057806342842e0e146101be57806342966c68146101d15780636352211e146101e4575f5ffd5b806301ffc9a71461012057806306fdde0314610148578063081812fc1461015d578063095ea7b314610188575b5f5ffd5b61013361012e366004610d61565b610310565b60405190151581526020015b60405180910390f35b61015061033a565b60405161013f9190610d88565b61017061016b366004610dbd565b6103c9565b6040516001600160a01b03909116815260200161013f565b61019b610196366004610def565b6103f0565b005b61019b6101ab366004610e17565b610409565b61019b610196366004610e47565b61019b6101cc366004610e47565b610573565b61019b6101df366004610dbd565b610592565b6101706101f2366004610dbd565b6106a6565b61020a610205366004610e81565b6106b0565b60405190815260200161013f565b6101707f000000000000000000000000000000000000000000000000000000000000000081565b6101506106f5565b61019b610196366004610e9a565b610133610263366004610dbd565b610704565b61019b610196366004610ee7565b610150610284366004610dbd565b610717565b61020a610297366004610dbd565b5f9081526007602052604090205490565b6102de6102b6366004610dbd565b5f908152600260209081526040808320546007909252909120546001600160a01b0390911691565b604080516001600160a01b03909316835260208301919091520161013f565b61013361030b366004610fc4565b61077c565b5f6001600160e01b03198216635a2d1e0760e11b14806103345750610334826107a9565b92915050565b60605f805461034890610ff5565b80601f016020809104026020016040519081016040528092919081815260200182805461037490610ff5565b80156103bf5780601f10610396576101008083540402835291602001916103bf565b820191905f5260205f20905b8154815290600101906020018083116103a257829003601f168201915b5050505050905090565b5f6103d3826107f8565b505f828152600460205260409020546001600160a01b0316610334565b60405163a4420a9560e01b815260040160405180910390fd5b336001600160a01b037f000000000000000000000000000000000000000000000000000000000000000016146104595760405163318d14a560e11b81523360048201526024015b60405180910390fd5b8061047757604051637cf5d4a560e01b815260040160405180910390fd5b5f82815260076020526040902054156104dd575f828152600260205260409020546001600160a01b03166104c15760405163ae2cd6e560e01b815260048101839052602401610450565b604051639fe07da160e01b815260048101839052602401610450565b5f8281526007602052604090208190556104f78383610830565b6040518281527f032bc66be43dbccb7487781d168eb7bda224628a3b2c3388bdf69b532a3a16119060200160405180910390a1826001600160a01b0316827f545537ca9c32b298bf90e4659e5ce906efba52c076cd841b6d90167edecd4f8b8360405161056691815260200190565b60405180910390a3505050565b61058d83838360405180602001604052805f8152506103f0565b505050565b336001600160a01b037f000000000000000000000000000000000000000000000000000000000000000016146105dd5760405163318d14a560e11b8152336004820152602401610450565b5f818152600260205260409020546001600160a01b031680610644575f82815260076020526040902054156106285760405163ae2cd6e560e01b815260048101839052602401610450565b604051637e27328960e01b815260048101839052602401610450565b61064d82610891565b806001600160a01b0316827f52f60a55aac993330e8ebf878705bb8da97c849163bcdc0d3e243d84c5d885c260075f8681526020019081526020015f205460405161069a91815260200190565b60405180910390a35050565b5f610334826107f8565b5f6001600160a01b0382166106da576040516322718ad960e21b81525f6004820152602401610450565b506001600160a01b03165f9081526003602052604090205490565b60606001805461034890610ff5565b5f61070e826107f8565b50600192915050565b6060610722826107f8565b505f61072c6108cd565b90505f81511161074a5760405180602001604052805f815250610775565b80610754846108dc565b604051602001610765929190611044565b6040516020818303038152906040525b9392505050565b6001600160a01b039182165f90815260056020908152604080832093909416825291909152205460ff1690565b5f6001600160e01b031982166380ac58cd60e01b14806107d957506001600160e01b03198216635b5e139f60e01b145b8061033457506301ffc9a760e01b6001600160e01b0319831614610334565b5f818152600260205260408120546001600160a01b03168061033457604051637e27328960e01b815260048101849052602401610450565b6001600160a01b03821661085957604051633250574960e11b81525f6004820152602401610450565b5f61086583835f61096c565b90506001600160a01b0381161561058d576040516339e3563760e11b81525f6004820152602401610450565b5f61089d5f835f61096c565b90506001600160a01b0381166108c957604051637e27328960e01b815260048101839052602401610450565b5050565b60606006805461034890610ff5565b60605f6108e8836109cc565b60010190505f8167ffffffffffffffff81111561090757610907610ed3565b6040519080825280601f01601f191660200182016040528015610931576020820181803683370190505b5090508181016020015b5f19016f181899199a1a9b1b9c1cb0b131b232b360811b600a86061a8153600a850494508461093b57509392505050565b5f828152600260205260408120546001600160a01b0316801580159061099a57506001600160a01b03851615155b156109b85760405163a4420a9560e01b815260040160405180910390fd5b6109c3858585610aa3565b95945050505050565b5f8072184f03e93ff9f4daa797ed6e38ed64bf6a1f0160401b8310610a0a5772184f03e93ff9f4daa797ed6e38ed64bf6a1f0160401b830492506040015b6d04ee2d6d415b85acef81000000008310610a36576d04ee2d6d415b85acef8100000000830492506020015b662386f26fc100008310610a5457662386f26fc10000830492506010015b6305f5e1008310610a6c576305f5e100830492506008015b6127108310610a8057612710830492506004015b60648310610a92576064830492506002015b600a83106103345760010192915050565b5f828152600260205260408120546001600160a01b0390811690831615610acf57610acf818486610b95565b6001600160a01b03811615610b0957610aea5f855f5f610bf9565b6001600160a01b0381165f90815260036020526040902080545f190190555b6001600160a01b03851615610b37576001600160a01b0385165f908152600360205260409020805460010190555b5f8481526002602052604080822080546001600160a01b0319166001600160a01b0389811691821790925591518793918516917fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef91a4949350505050565b610ba0838383610cfd565b61058d576001600160a01b038316610bce57604051637e27328960e01b815260048101829052602401610450565b60405163177e802f60e01b81526001600160a01b038316600482015260248101829052604401610450565b8080610c0d57506001600160a01b03821615155b15610cce575f610c1c846107f8565b90506001600160a01b03831615801590610c485750826001600160a01b0316816001600160a01b031614155b8015610c5b5750610c59818461077c565b155b15610c845760405163a9fbf51f60e01b81526001600160a01b0384166004820152602401610450565b8115610ccc5783856001600160a01b0316826001600160a01b03167f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b92560405160405180910390a45b505b50505f90815260046020526040902080546001600160a01b0319166001600160a01b0392909216919091179055565b5f6001600160a01b03831615801590610d595750826001600160a01b0316846001600160a01b03161480610d365750610d36848461077c565b80610d5957505f828152600460205260409020546001600160a01b038481169116145b949350505050565b5f60208284031215610d71575f5ffd5b81356001600160e01b031981168114610775575f5ffd5b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b5f60208284031215610dcd575f5ffd5b5035919050565b80356001600160a01b0381168114610dea575f5ffd5b919050565b5f5f60408385031215610e00575f5ffd5b610e0983610dd4565b946020939093013593505050565b5f5f5f60608486031215610e29575f5ffd5b610e3284610dd4565b95602085013595506040909401359392505050565b5f5f5f60608486031215610e59575f5ffd5b610e6284610dd4565b9250610e7060208501610dd4565b929592945050506040919091013590565b5f60208284031215610e91575f5ffd5b61077582610dd4565b5f5f60408385031215610eab575f5ffd5b610eb483610dd4565b915060208301358015158114610ec8575f5ffd5b809150509250929050565b634e487b7160e01b5f52604160045260245ffd5b5f5f5f5f60808587031215610efa575f5ffd5b610f0385610dd4565b9350610f1160208601610dd4565b925060408501359150606085013567ffffffffffffffff811115610f33575f5ffd5b8501601f81018713610f43575f5ffd5b803567ffffffffffffffff811115610f5d57610f5d610ed3565b604051601f8201601f19908116603f0116810167ffffffffffffffff81118282101715610f8c57610f8c610ed3565b604052818152828201602001891015610fa3575f5ffd5b816020840160208301375f6020838301015280935050505092959194509250565b5f5f60408385031215610fd5575f5ffd5b610fde83610dd4565b9150610fec60208401610dd4565b90509250929050565b600181811c9082168061100957607f821691505b60208210810361102757634e487b7160e01b5f52602260045260245ffd5b50919050565b5f81518060208401855e5f93019283525090919050565b5f610d59611052838661102d565b8461102d56fea2646970667358221220d162dd9fbb33b564039ba4373f3542e549a968e4111b52c4b2701dc19ce3f68864736f6c634300081e0033",
}

// LandTitleABI is the input ABI used to generate the binding from.
// Deprecated: Use LandTitleMetaData.ABI instead.
var LandTitleABI = LandTitleMetaData.ABI

// LandTitleBin is the compiled bytecode used for deploying new contracts.
// Deprecated: Use LandTitleMetaData.Bin instead.
var LandTitleBin = LandTitleMetaData.Bin

// DeployLandTitle deploys a new Ethereum contract, binding an instance of LandTitle to it.
func DeployLandTitle(auth *bind.TransactOpts, backend bind.ContractBackend, registry_ common.Address, baseURI_ string) (common.Address, *types.Transaction, *LandTitle, error) {
	parsed, err := LandTitleMetaData.GetAbi()
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	if parsed == nil {
		return common.Address{}, nil, nil, errors.New("GetABI returned nil")
	}

	address, tx, contract, err := bind.DeployContract(auth, *parsed, common.FromHex(LandTitleBin), backend, registry_, baseURI_)
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	return address, tx, &LandTitle{LandTitleCaller: LandTitleCaller{contract: contract}, LandTitleTransactor: LandTitleTransactor{contract: contract}, LandTitleFilterer: LandTitleFilterer{contract: contract}}, nil
}

// LandTitle is an auto generated Go binding around an Ethereum contract.
type LandTitle struct {
	LandTitleCaller     // Read-only binding to the contract
	LandTitleTransactor // Write-only binding to the contract
	LandTitleFilterer   // Log filterer for contract events
}

// LandTitleCaller is an auto generated read-only Go binding around an Ethereum contract.
type LandTitleCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// LandTitleTransactor is an auto generated write-only Go binding around an Ethereum contract.
type LandTitleTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// LandTitleFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type LandTitleFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// LandTitleSession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type LandTitleSession struct {
	Contract     *LandTitle        // Generic contract binding to set the session for
	CallOpts     bind.CallOpts     // Call options to use throughout this session
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// LandTitleCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type LandTitleCallerSession struct {
	Contract *LandTitleCaller // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts    // Call options to use throughout this session
}

// LandTitleTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type LandTitleTransactorSession struct {
	Contract     *LandTitleTransactor // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts    // Transaction auth options to use throughout this session
}

// LandTitleRaw is an auto generated low-level Go binding around an Ethereum contract.
type LandTitleRaw struct {
	Contract *LandTitle // Generic contract binding to access the raw methods on
}

// LandTitleCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type LandTitleCallerRaw struct {
	Contract *LandTitleCaller // Generic read-only contract binding to access the raw methods on
}

// LandTitleTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type LandTitleTransactorRaw struct {
	Contract *LandTitleTransactor // Generic write-only contract binding to access the raw methods on
}

// NewLandTitle creates a new instance of LandTitle, bound to a specific deployed contract.
func NewLandTitle(address common.Address, backend bind.ContractBackend) (*LandTitle, error) {
	contract, err := bindLandTitle(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &LandTitle{LandTitleCaller: LandTitleCaller{contract: contract}, LandTitleTransactor: LandTitleTransactor{contract: contract}, LandTitleFilterer: LandTitleFilterer{contract: contract}}, nil
}

// NewLandTitleCaller creates a new read-only instance of LandTitle, bound to a specific deployed contract.
func NewLandTitleCaller(address common.Address, caller bind.ContractCaller) (*LandTitleCaller, error) {
	contract, err := bindLandTitle(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &LandTitleCaller{contract: contract}, nil
}

// NewLandTitleTransactor creates a new write-only instance of LandTitle, bound to a specific deployed contract.
func NewLandTitleTransactor(address common.Address, transactor bind.ContractTransactor) (*LandTitleTransactor, error) {
	contract, err := bindLandTitle(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &LandTitleTransactor{contract: contract}, nil
}

// NewLandTitleFilterer creates a new log filterer instance of LandTitle, bound to a specific deployed contract.
func NewLandTitleFilterer(address common.Address, filterer bind.ContractFilterer) (*LandTitleFilterer, error) {
	contract, err := bindLandTitle(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &LandTitleFilterer{contract: contract}, nil
}

// bindLandTitle binds a generic wrapper to an already deployed contract.
func bindLandTitle(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := LandTitleMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_LandTitle *LandTitleRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _LandTitle.Contract.LandTitleCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_LandTitle *LandTitleRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _LandTitle.Contract.LandTitleTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_LandTitle *LandTitleRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _LandTitle.Contract.LandTitleTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_LandTitle *LandTitleCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _LandTitle.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_LandTitle *LandTitleTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _LandTitle.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_LandTitle *LandTitleTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _LandTitle.Contract.contract.Transact(opts, method, params...)
}

// BalanceOf is a free data retrieval call binding the contract method 0x70a08231.
//
// Solidity: function balanceOf(address owner) view returns(uint256)
func (_LandTitle *LandTitleCaller) BalanceOf(opts *bind.CallOpts, owner common.Address) (*big.Int, error) {
	var out []interface{}
	err := _LandTitle.contract.Call(opts, &out, "balanceOf", owner)

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// BalanceOf is a free data retrieval call binding the contract method 0x70a08231.
//
// Solidity: function balanceOf(address owner) view returns(uint256)
func (_LandTitle *LandTitleSession) BalanceOf(owner common.Address) (*big.Int, error) {
	return _LandTitle.Contract.BalanceOf(&_LandTitle.CallOpts, owner)
}

// BalanceOf is a free data retrieval call binding the contract method 0x70a08231.
//
// Solidity: function balanceOf(address owner) view returns(uint256)
func (_LandTitle *LandTitleCallerSession) BalanceOf(owner common.Address) (*big.Int, error) {
	return _LandTitle.Contract.BalanceOf(&_LandTitle.CallOpts, owner)
}

// CertificateHash is a free data retrieval call binding the contract method 0xd8eac6c7.
//
// Solidity: function certificateHash(uint256 tokenId) view returns(bytes32)
func (_LandTitle *LandTitleCaller) CertificateHash(opts *bind.CallOpts, tokenId *big.Int) ([32]byte, error) {
	var out []interface{}
	err := _LandTitle.contract.Call(opts, &out, "certificateHash", tokenId)

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// CertificateHash is a free data retrieval call binding the contract method 0xd8eac6c7.
//
// Solidity: function certificateHash(uint256 tokenId) view returns(bytes32)
func (_LandTitle *LandTitleSession) CertificateHash(tokenId *big.Int) ([32]byte, error) {
	return _LandTitle.Contract.CertificateHash(&_LandTitle.CallOpts, tokenId)
}

// CertificateHash is a free data retrieval call binding the contract method 0xd8eac6c7.
//
// Solidity: function certificateHash(uint256 tokenId) view returns(bytes32)
func (_LandTitle *LandTitleCallerSession) CertificateHash(tokenId *big.Int) ([32]byte, error) {
	return _LandTitle.Contract.CertificateHash(&_LandTitle.CallOpts, tokenId)
}

// GetApproved is a free data retrieval call binding the contract method 0x081812fc.
//
// Solidity: function getApproved(uint256 tokenId) view returns(address)
func (_LandTitle *LandTitleCaller) GetApproved(opts *bind.CallOpts, tokenId *big.Int) (common.Address, error) {
	var out []interface{}
	err := _LandTitle.contract.Call(opts, &out, "getApproved", tokenId)

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// GetApproved is a free data retrieval call binding the contract method 0x081812fc.
//
// Solidity: function getApproved(uint256 tokenId) view returns(address)
func (_LandTitle *LandTitleSession) GetApproved(tokenId *big.Int) (common.Address, error) {
	return _LandTitle.Contract.GetApproved(&_LandTitle.CallOpts, tokenId)
}

// GetApproved is a free data retrieval call binding the contract method 0x081812fc.
//
// Solidity: function getApproved(uint256 tokenId) view returns(address)
func (_LandTitle *LandTitleCallerSession) GetApproved(tokenId *big.Int) (common.Address, error) {
	return _LandTitle.Contract.GetApproved(&_LandTitle.CallOpts, tokenId)
}

// IsApprovedForAll is a free data retrieval call binding the contract method 0xe985e9c5.
//
// Solidity: function isApprovedForAll(address owner, address operator) view returns(bool)
func (_LandTitle *LandTitleCaller) IsApprovedForAll(opts *bind.CallOpts, owner common.Address, operator common.Address) (bool, error) {
	var out []interface{}
	err := _LandTitle.contract.Call(opts, &out, "isApprovedForAll", owner, operator)

	if err != nil {
		return *new(bool), err
	}

	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)

	return out0, err

}

// IsApprovedForAll is a free data retrieval call binding the contract method 0xe985e9c5.
//
// Solidity: function isApprovedForAll(address owner, address operator) view returns(bool)
func (_LandTitle *LandTitleSession) IsApprovedForAll(owner common.Address, operator common.Address) (bool, error) {
	return _LandTitle.Contract.IsApprovedForAll(&_LandTitle.CallOpts, owner, operator)
}

// IsApprovedForAll is a free data retrieval call binding the contract method 0xe985e9c5.
//
// Solidity: function isApprovedForAll(address owner, address operator) view returns(bool)
func (_LandTitle *LandTitleCallerSession) IsApprovedForAll(owner common.Address, operator common.Address) (bool, error) {
	return _LandTitle.Contract.IsApprovedForAll(&_LandTitle.CallOpts, owner, operator)
}

// Locked is a free data retrieval call binding the contract method 0xb45a3c0e.
//
// Solidity: function locked(uint256 tokenId) view returns(bool)
func (_LandTitle *LandTitleCaller) Locked(opts *bind.CallOpts, tokenId *big.Int) (bool, error) {
	var out []interface{}
	err := _LandTitle.contract.Call(opts, &out, "locked", tokenId)

	if err != nil {
		return *new(bool), err
	}

	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)

	return out0, err

}

// Locked is a free data retrieval call binding the contract method 0xb45a3c0e.
//
// Solidity: function locked(uint256 tokenId) view returns(bool)
func (_LandTitle *LandTitleSession) Locked(tokenId *big.Int) (bool, error) {
	return _LandTitle.Contract.Locked(&_LandTitle.CallOpts, tokenId)
}

// Locked is a free data retrieval call binding the contract method 0xb45a3c0e.
//
// Solidity: function locked(uint256 tokenId) view returns(bool)
func (_LandTitle *LandTitleCallerSession) Locked(tokenId *big.Int) (bool, error) {
	return _LandTitle.Contract.Locked(&_LandTitle.CallOpts, tokenId)
}

// Name is a free data retrieval call binding the contract method 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (_LandTitle *LandTitleCaller) Name(opts *bind.CallOpts) (string, error) {
	var out []interface{}
	err := _LandTitle.contract.Call(opts, &out, "name")

	if err != nil {
		return *new(string), err
	}

	out0 := *abi.ConvertType(out[0], new(string)).(*string)

	return out0, err

}

// Name is a free data retrieval call binding the contract method 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (_LandTitle *LandTitleSession) Name() (string, error) {
	return _LandTitle.Contract.Name(&_LandTitle.CallOpts)
}

// Name is a free data retrieval call binding the contract method 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (_LandTitle *LandTitleCallerSession) Name() (string, error) {
	return _LandTitle.Contract.Name(&_LandTitle.CallOpts)
}

// OwnerOf is a free data retrieval call binding the contract method 0x6352211e.
//
// Solidity: function ownerOf(uint256 tokenId) view returns(address)
func (_LandTitle *LandTitleCaller) OwnerOf(opts *bind.CallOpts, tokenId *big.Int) (common.Address, error) {
	var out []interface{}
	err := _LandTitle.contract.Call(opts, &out, "ownerOf", tokenId)

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// OwnerOf is a free data retrieval call binding the contract method 0x6352211e.
//
// Solidity: function ownerOf(uint256 tokenId) view returns(address)
func (_LandTitle *LandTitleSession) OwnerOf(tokenId *big.Int) (common.Address, error) {
	return _LandTitle.Contract.OwnerOf(&_LandTitle.CallOpts, tokenId)
}

// OwnerOf is a free data retrieval call binding the contract method 0x6352211e.
//
// Solidity: function ownerOf(uint256 tokenId) view returns(address)
func (_LandTitle *LandTitleCallerSession) OwnerOf(tokenId *big.Int) (common.Address, error) {
	return _LandTitle.Contract.OwnerOf(&_LandTitle.CallOpts, tokenId)
}

// Registry is a free data retrieval call binding the contract method 0x7b103999.
//
// Solidity: function registry() view returns(address)
func (_LandTitle *LandTitleCaller) Registry(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _LandTitle.contract.Call(opts, &out, "registry")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// Registry is a free data retrieval call binding the contract method 0x7b103999.
//
// Solidity: function registry() view returns(address)
func (_LandTitle *LandTitleSession) Registry() (common.Address, error) {
	return _LandTitle.Contract.Registry(&_LandTitle.CallOpts)
}

// Registry is a free data retrieval call binding the contract method 0x7b103999.
//
// Solidity: function registry() view returns(address)
func (_LandTitle *LandTitleCallerSession) Registry() (common.Address, error) {
	return _LandTitle.Contract.Registry(&_LandTitle.CallOpts)
}

// SupportsInterface is a free data retrieval call binding the contract method 0x01ffc9a7.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (_LandTitle *LandTitleCaller) SupportsInterface(opts *bind.CallOpts, interfaceId [4]byte) (bool, error) {
	var out []interface{}
	err := _LandTitle.contract.Call(opts, &out, "supportsInterface", interfaceId)

	if err != nil {
		return *new(bool), err
	}

	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)

	return out0, err

}

// SupportsInterface is a free data retrieval call binding the contract method 0x01ffc9a7.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (_LandTitle *LandTitleSession) SupportsInterface(interfaceId [4]byte) (bool, error) {
	return _LandTitle.Contract.SupportsInterface(&_LandTitle.CallOpts, interfaceId)
}

// SupportsInterface is a free data retrieval call binding the contract method 0x01ffc9a7.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (_LandTitle *LandTitleCallerSession) SupportsInterface(interfaceId [4]byte) (bool, error) {
	return _LandTitle.Contract.SupportsInterface(&_LandTitle.CallOpts, interfaceId)
}

// Symbol is a free data retrieval call binding the contract method 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (_LandTitle *LandTitleCaller) Symbol(opts *bind.CallOpts) (string, error) {
	var out []interface{}
	err := _LandTitle.contract.Call(opts, &out, "symbol")

	if err != nil {
		return *new(string), err
	}

	out0 := *abi.ConvertType(out[0], new(string)).(*string)

	return out0, err

}

// Symbol is a free data retrieval call binding the contract method 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (_LandTitle *LandTitleSession) Symbol() (string, error) {
	return _LandTitle.Contract.Symbol(&_LandTitle.CallOpts)
}

// Symbol is a free data retrieval call binding the contract method 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (_LandTitle *LandTitleCallerSession) Symbol() (string, error) {
	return _LandTitle.Contract.Symbol(&_LandTitle.CallOpts)
}

// TitleOf is a free data retrieval call binding the contract method 0xdaf7c166.
//
// Solidity: function titleOf(uint256 tokenId) view returns(address holder, bytes32 certificateHash_)
func (_LandTitle *LandTitleCaller) TitleOf(opts *bind.CallOpts, tokenId *big.Int) (struct {
	Holder          common.Address
	CertificateHash [32]byte
}, error) {
	var out []interface{}
	err := _LandTitle.contract.Call(opts, &out, "titleOf", tokenId)

	outstruct := new(struct {
		Holder          common.Address
		CertificateHash [32]byte
	})
	if err != nil {
		return *outstruct, err
	}

	outstruct.Holder = *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	outstruct.CertificateHash = *abi.ConvertType(out[1], new([32]byte)).(*[32]byte)

	return *outstruct, err

}

// TitleOf is a free data retrieval call binding the contract method 0xdaf7c166.
//
// Solidity: function titleOf(uint256 tokenId) view returns(address holder, bytes32 certificateHash_)
func (_LandTitle *LandTitleSession) TitleOf(tokenId *big.Int) (struct {
	Holder          common.Address
	CertificateHash [32]byte
}, error) {
	return _LandTitle.Contract.TitleOf(&_LandTitle.CallOpts, tokenId)
}

// TitleOf is a free data retrieval call binding the contract method 0xdaf7c166.
//
// Solidity: function titleOf(uint256 tokenId) view returns(address holder, bytes32 certificateHash_)
func (_LandTitle *LandTitleCallerSession) TitleOf(tokenId *big.Int) (struct {
	Holder          common.Address
	CertificateHash [32]byte
}, error) {
	return _LandTitle.Contract.TitleOf(&_LandTitle.CallOpts, tokenId)
}

// TokenURI is a free data retrieval call binding the contract method 0xc87b56dd.
//
// Solidity: function tokenURI(uint256 tokenId) view returns(string)
func (_LandTitle *LandTitleCaller) TokenURI(opts *bind.CallOpts, tokenId *big.Int) (string, error) {
	var out []interface{}
	err := _LandTitle.contract.Call(opts, &out, "tokenURI", tokenId)

	if err != nil {
		return *new(string), err
	}

	out0 := *abi.ConvertType(out[0], new(string)).(*string)

	return out0, err

}

// TokenURI is a free data retrieval call binding the contract method 0xc87b56dd.
//
// Solidity: function tokenURI(uint256 tokenId) view returns(string)
func (_LandTitle *LandTitleSession) TokenURI(tokenId *big.Int) (string, error) {
	return _LandTitle.Contract.TokenURI(&_LandTitle.CallOpts, tokenId)
}

// TokenURI is a free data retrieval call binding the contract method 0xc87b56dd.
//
// Solidity: function tokenURI(uint256 tokenId) view returns(string)
func (_LandTitle *LandTitleCallerSession) TokenURI(tokenId *big.Int) (string, error) {
	return _LandTitle.Contract.TokenURI(&_LandTitle.CallOpts, tokenId)
}

// Approve is a paid mutator transaction binding the contract method 0x095ea7b3.
//
// Solidity: function approve(address , uint256 ) returns()
func (_LandTitle *LandTitleTransactor) Approve(opts *bind.TransactOpts, arg0 common.Address, arg1 *big.Int) (*types.Transaction, error) {
	return _LandTitle.contract.Transact(opts, "approve", arg0, arg1)
}

// Approve is a paid mutator transaction binding the contract method 0x095ea7b3.
//
// Solidity: function approve(address , uint256 ) returns()
func (_LandTitle *LandTitleSession) Approve(arg0 common.Address, arg1 *big.Int) (*types.Transaction, error) {
	return _LandTitle.Contract.Approve(&_LandTitle.TransactOpts, arg0, arg1)
}

// Approve is a paid mutator transaction binding the contract method 0x095ea7b3.
//
// Solidity: function approve(address , uint256 ) returns()
func (_LandTitle *LandTitleTransactorSession) Approve(arg0 common.Address, arg1 *big.Int) (*types.Transaction, error) {
	return _LandTitle.Contract.Approve(&_LandTitle.TransactOpts, arg0, arg1)
}

// Burn is a paid mutator transaction binding the contract method 0x42966c68.
//
// Solidity: function burn(uint256 tokenId) returns()
func (_LandTitle *LandTitleTransactor) Burn(opts *bind.TransactOpts, tokenId *big.Int) (*types.Transaction, error) {
	return _LandTitle.contract.Transact(opts, "burn", tokenId)
}

// Burn is a paid mutator transaction binding the contract method 0x42966c68.
//
// Solidity: function burn(uint256 tokenId) returns()
func (_LandTitle *LandTitleSession) Burn(tokenId *big.Int) (*types.Transaction, error) {
	return _LandTitle.Contract.Burn(&_LandTitle.TransactOpts, tokenId)
}

// Burn is a paid mutator transaction binding the contract method 0x42966c68.
//
// Solidity: function burn(uint256 tokenId) returns()
func (_LandTitle *LandTitleTransactorSession) Burn(tokenId *big.Int) (*types.Transaction, error) {
	return _LandTitle.Contract.Burn(&_LandTitle.TransactOpts, tokenId)
}

// Mint is a paid mutator transaction binding the contract method 0x1e458bee.
//
// Solidity: function mint(address to, uint256 tokenId, bytes32 certificateHash_) returns()
func (_LandTitle *LandTitleTransactor) Mint(opts *bind.TransactOpts, to common.Address, tokenId *big.Int, certificateHash_ [32]byte) (*types.Transaction, error) {
	return _LandTitle.contract.Transact(opts, "mint", to, tokenId, certificateHash_)
}

// Mint is a paid mutator transaction binding the contract method 0x1e458bee.
//
// Solidity: function mint(address to, uint256 tokenId, bytes32 certificateHash_) returns()
func (_LandTitle *LandTitleSession) Mint(to common.Address, tokenId *big.Int, certificateHash_ [32]byte) (*types.Transaction, error) {
	return _LandTitle.Contract.Mint(&_LandTitle.TransactOpts, to, tokenId, certificateHash_)
}

// Mint is a paid mutator transaction binding the contract method 0x1e458bee.
//
// Solidity: function mint(address to, uint256 tokenId, bytes32 certificateHash_) returns()
func (_LandTitle *LandTitleTransactorSession) Mint(to common.Address, tokenId *big.Int, certificateHash_ [32]byte) (*types.Transaction, error) {
	return _LandTitle.Contract.Mint(&_LandTitle.TransactOpts, to, tokenId, certificateHash_)
}

// SafeTransferFrom is a paid mutator transaction binding the contract method 0x42842e0e.
//
// Solidity: function safeTransferFrom(address from, address to, uint256 tokenId) returns()
func (_LandTitle *LandTitleTransactor) SafeTransferFrom(opts *bind.TransactOpts, from common.Address, to common.Address, tokenId *big.Int) (*types.Transaction, error) {
	return _LandTitle.contract.Transact(opts, "safeTransferFrom", from, to, tokenId)
}

// SafeTransferFrom is a paid mutator transaction binding the contract method 0x42842e0e.
//
// Solidity: function safeTransferFrom(address from, address to, uint256 tokenId) returns()
func (_LandTitle *LandTitleSession) SafeTransferFrom(from common.Address, to common.Address, tokenId *big.Int) (*types.Transaction, error) {
	return _LandTitle.Contract.SafeTransferFrom(&_LandTitle.TransactOpts, from, to, tokenId)
}

// SafeTransferFrom is a paid mutator transaction binding the contract method 0x42842e0e.
//
// Solidity: function safeTransferFrom(address from, address to, uint256 tokenId) returns()
func (_LandTitle *LandTitleTransactorSession) SafeTransferFrom(from common.Address, to common.Address, tokenId *big.Int) (*types.Transaction, error) {
	return _LandTitle.Contract.SafeTransferFrom(&_LandTitle.TransactOpts, from, to, tokenId)
}

// SafeTransferFrom0 is a paid mutator transaction binding the contract method 0xb88d4fde.
//
// Solidity: function safeTransferFrom(address , address , uint256 , bytes ) returns()
func (_LandTitle *LandTitleTransactor) SafeTransferFrom0(opts *bind.TransactOpts, arg0 common.Address, arg1 common.Address, arg2 *big.Int, arg3 []byte) (*types.Transaction, error) {
	return _LandTitle.contract.Transact(opts, "safeTransferFrom0", arg0, arg1, arg2, arg3)
}

// SafeTransferFrom0 is a paid mutator transaction binding the contract method 0xb88d4fde.
//
// Solidity: function safeTransferFrom(address , address , uint256 , bytes ) returns()
func (_LandTitle *LandTitleSession) SafeTransferFrom0(arg0 common.Address, arg1 common.Address, arg2 *big.Int, arg3 []byte) (*types.Transaction, error) {
	return _LandTitle.Contract.SafeTransferFrom0(&_LandTitle.TransactOpts, arg0, arg1, arg2, arg3)
}

// SafeTransferFrom0 is a paid mutator transaction binding the contract method 0xb88d4fde.
//
// Solidity: function safeTransferFrom(address , address , uint256 , bytes ) returns()
func (_LandTitle *LandTitleTransactorSession) SafeTransferFrom0(arg0 common.Address, arg1 common.Address, arg2 *big.Int, arg3 []byte) (*types.Transaction, error) {
	return _LandTitle.Contract.SafeTransferFrom0(&_LandTitle.TransactOpts, arg0, arg1, arg2, arg3)
}

// SetApprovalForAll is a paid mutator transaction binding the contract method 0xa22cb465.
//
// Solidity: function setApprovalForAll(address , bool ) returns()
func (_LandTitle *LandTitleTransactor) SetApprovalForAll(opts *bind.TransactOpts, arg0 common.Address, arg1 bool) (*types.Transaction, error) {
	return _LandTitle.contract.Transact(opts, "setApprovalForAll", arg0, arg1)
}

// SetApprovalForAll is a paid mutator transaction binding the contract method 0xa22cb465.
//
// Solidity: function setApprovalForAll(address , bool ) returns()
func (_LandTitle *LandTitleSession) SetApprovalForAll(arg0 common.Address, arg1 bool) (*types.Transaction, error) {
	return _LandTitle.Contract.SetApprovalForAll(&_LandTitle.TransactOpts, arg0, arg1)
}

// SetApprovalForAll is a paid mutator transaction binding the contract method 0xa22cb465.
//
// Solidity: function setApprovalForAll(address , bool ) returns()
func (_LandTitle *LandTitleTransactorSession) SetApprovalForAll(arg0 common.Address, arg1 bool) (*types.Transaction, error) {
	return _LandTitle.Contract.SetApprovalForAll(&_LandTitle.TransactOpts, arg0, arg1)
}

// TransferFrom is a paid mutator transaction binding the contract method 0x23b872dd.
//
// Solidity: function transferFrom(address , address , uint256 ) returns()
func (_LandTitle *LandTitleTransactor) TransferFrom(opts *bind.TransactOpts, arg0 common.Address, arg1 common.Address, arg2 *big.Int) (*types.Transaction, error) {
	return _LandTitle.contract.Transact(opts, "transferFrom", arg0, arg1, arg2)
}

// TransferFrom is a paid mutator transaction binding the contract method 0x23b872dd.
//
// Solidity: function transferFrom(address , address , uint256 ) returns()
func (_LandTitle *LandTitleSession) TransferFrom(arg0 common.Address, arg1 common.Address, arg2 *big.Int) (*types.Transaction, error) {
	return _LandTitle.Contract.TransferFrom(&_LandTitle.TransactOpts, arg0, arg1, arg2)
}

// TransferFrom is a paid mutator transaction binding the contract method 0x23b872dd.
//
// Solidity: function transferFrom(address , address , uint256 ) returns()
func (_LandTitle *LandTitleTransactorSession) TransferFrom(arg0 common.Address, arg1 common.Address, arg2 *big.Int) (*types.Transaction, error) {
	return _LandTitle.Contract.TransferFrom(&_LandTitle.TransactOpts, arg0, arg1, arg2)
}

// LandTitleApprovalIterator is returned from FilterApproval and is used to iterate over the raw logs and unpacked data for Approval events raised by the LandTitle contract.
type LandTitleApprovalIterator struct {
	Event *LandTitleApproval // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *LandTitleApprovalIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(LandTitleApproval)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(LandTitleApproval)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *LandTitleApprovalIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *LandTitleApprovalIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// LandTitleApproval represents a Approval event raised by the LandTitle contract.
type LandTitleApproval struct {
	Owner    common.Address
	Approved common.Address
	TokenId  *big.Int
	Raw      types.Log // Blockchain specific contextual infos
}

// FilterApproval is a free log retrieval operation binding the contract event 0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925.
//
// Solidity: event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)
func (_LandTitle *LandTitleFilterer) FilterApproval(opts *bind.FilterOpts, owner []common.Address, approved []common.Address, tokenId []*big.Int) (*LandTitleApprovalIterator, error) {

	var ownerRule []interface{}
	for _, ownerItem := range owner {
		ownerRule = append(ownerRule, ownerItem)
	}
	var approvedRule []interface{}
	for _, approvedItem := range approved {
		approvedRule = append(approvedRule, approvedItem)
	}
	var tokenIdRule []interface{}
	for _, tokenIdItem := range tokenId {
		tokenIdRule = append(tokenIdRule, tokenIdItem)
	}

	logs, sub, err := _LandTitle.contract.FilterLogs(opts, "Approval", ownerRule, approvedRule, tokenIdRule)
	if err != nil {
		return nil, err
	}
	return &LandTitleApprovalIterator{contract: _LandTitle.contract, event: "Approval", logs: logs, sub: sub}, nil
}

// WatchApproval is a free log subscription operation binding the contract event 0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925.
//
// Solidity: event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)
func (_LandTitle *LandTitleFilterer) WatchApproval(opts *bind.WatchOpts, sink chan<- *LandTitleApproval, owner []common.Address, approved []common.Address, tokenId []*big.Int) (event.Subscription, error) {

	var ownerRule []interface{}
	for _, ownerItem := range owner {
		ownerRule = append(ownerRule, ownerItem)
	}
	var approvedRule []interface{}
	for _, approvedItem := range approved {
		approvedRule = append(approvedRule, approvedItem)
	}
	var tokenIdRule []interface{}
	for _, tokenIdItem := range tokenId {
		tokenIdRule = append(tokenIdRule, tokenIdItem)
	}

	logs, sub, err := _LandTitle.contract.WatchLogs(opts, "Approval", ownerRule, approvedRule, tokenIdRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(LandTitleApproval)
				if err := _LandTitle.contract.UnpackLog(event, "Approval", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseApproval is a log parse operation binding the contract event 0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925.
//
// Solidity: event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)
func (_LandTitle *LandTitleFilterer) ParseApproval(log types.Log) (*LandTitleApproval, error) {
	event := new(LandTitleApproval)
	if err := _LandTitle.contract.UnpackLog(event, "Approval", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// LandTitleApprovalForAllIterator is returned from FilterApprovalForAll and is used to iterate over the raw logs and unpacked data for ApprovalForAll events raised by the LandTitle contract.
type LandTitleApprovalForAllIterator struct {
	Event *LandTitleApprovalForAll // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *LandTitleApprovalForAllIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(LandTitleApprovalForAll)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(LandTitleApprovalForAll)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *LandTitleApprovalForAllIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *LandTitleApprovalForAllIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// LandTitleApprovalForAll represents a ApprovalForAll event raised by the LandTitle contract.
type LandTitleApprovalForAll struct {
	Owner    common.Address
	Operator common.Address
	Approved bool
	Raw      types.Log // Blockchain specific contextual infos
}

// FilterApprovalForAll is a free log retrieval operation binding the contract event 0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31.
//
// Solidity: event ApprovalForAll(address indexed owner, address indexed operator, bool approved)
func (_LandTitle *LandTitleFilterer) FilterApprovalForAll(opts *bind.FilterOpts, owner []common.Address, operator []common.Address) (*LandTitleApprovalForAllIterator, error) {

	var ownerRule []interface{}
	for _, ownerItem := range owner {
		ownerRule = append(ownerRule, ownerItem)
	}
	var operatorRule []interface{}
	for _, operatorItem := range operator {
		operatorRule = append(operatorRule, operatorItem)
	}

	logs, sub, err := _LandTitle.contract.FilterLogs(opts, "ApprovalForAll", ownerRule, operatorRule)
	if err != nil {
		return nil, err
	}
	return &LandTitleApprovalForAllIterator{contract: _LandTitle.contract, event: "ApprovalForAll", logs: logs, sub: sub}, nil
}

// WatchApprovalForAll is a free log subscription operation binding the contract event 0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31.
//
// Solidity: event ApprovalForAll(address indexed owner, address indexed operator, bool approved)
func (_LandTitle *LandTitleFilterer) WatchApprovalForAll(opts *bind.WatchOpts, sink chan<- *LandTitleApprovalForAll, owner []common.Address, operator []common.Address) (event.Subscription, error) {

	var ownerRule []interface{}
	for _, ownerItem := range owner {
		ownerRule = append(ownerRule, ownerItem)
	}
	var operatorRule []interface{}
	for _, operatorItem := range operator {
		operatorRule = append(operatorRule, operatorItem)
	}

	logs, sub, err := _LandTitle.contract.WatchLogs(opts, "ApprovalForAll", ownerRule, operatorRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(LandTitleApprovalForAll)
				if err := _LandTitle.contract.UnpackLog(event, "ApprovalForAll", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseApprovalForAll is a log parse operation binding the contract event 0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31.
//
// Solidity: event ApprovalForAll(address indexed owner, address indexed operator, bool approved)
func (_LandTitle *LandTitleFilterer) ParseApprovalForAll(log types.Log) (*LandTitleApprovalForAll, error) {
	event := new(LandTitleApprovalForAll)
	if err := _LandTitle.contract.UnpackLog(event, "ApprovalForAll", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// LandTitleLockedIterator is returned from FilterLocked and is used to iterate over the raw logs and unpacked data for Locked events raised by the LandTitle contract.
type LandTitleLockedIterator struct {
	Event *LandTitleLocked // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *LandTitleLockedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(LandTitleLocked)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(LandTitleLocked)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *LandTitleLockedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *LandTitleLockedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// LandTitleLocked represents a Locked event raised by the LandTitle contract.
type LandTitleLocked struct {
	TokenId *big.Int
	Raw     types.Log // Blockchain specific contextual infos
}

// FilterLocked is a free log retrieval operation binding the contract event 0x032bc66be43dbccb7487781d168eb7bda224628a3b2c3388bdf69b532a3a1611.
//
// Solidity: event Locked(uint256 tokenId)
func (_LandTitle *LandTitleFilterer) FilterLocked(opts *bind.FilterOpts) (*LandTitleLockedIterator, error) {

	logs, sub, err := _LandTitle.contract.FilterLogs(opts, "Locked")
	if err != nil {
		return nil, err
	}
	return &LandTitleLockedIterator{contract: _LandTitle.contract, event: "Locked", logs: logs, sub: sub}, nil
}

// WatchLocked is a free log subscription operation binding the contract event 0x032bc66be43dbccb7487781d168eb7bda224628a3b2c3388bdf69b532a3a1611.
//
// Solidity: event Locked(uint256 tokenId)
func (_LandTitle *LandTitleFilterer) WatchLocked(opts *bind.WatchOpts, sink chan<- *LandTitleLocked) (event.Subscription, error) {

	logs, sub, err := _LandTitle.contract.WatchLogs(opts, "Locked")
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(LandTitleLocked)
				if err := _LandTitle.contract.UnpackLog(event, "Locked", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseLocked is a log parse operation binding the contract event 0x032bc66be43dbccb7487781d168eb7bda224628a3b2c3388bdf69b532a3a1611.
//
// Solidity: event Locked(uint256 tokenId)
func (_LandTitle *LandTitleFilterer) ParseLocked(log types.Log) (*LandTitleLocked, error) {
	event := new(LandTitleLocked)
	if err := _LandTitle.contract.UnpackLog(event, "Locked", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// LandTitleTitleBurnedIterator is returned from FilterTitleBurned and is used to iterate over the raw logs and unpacked data for TitleBurned events raised by the LandTitle contract.
type LandTitleTitleBurnedIterator struct {
	Event *LandTitleTitleBurned // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *LandTitleTitleBurnedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(LandTitleTitleBurned)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(LandTitleTitleBurned)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *LandTitleTitleBurnedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *LandTitleTitleBurnedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// LandTitleTitleBurned represents a TitleBurned event raised by the LandTitle contract.
type LandTitleTitleBurned struct {
	TokenId         *big.Int
	Holder          common.Address
	CertificateHash [32]byte
	Raw             types.Log // Blockchain specific contextual infos
}

// FilterTitleBurned is a free log retrieval operation binding the contract event 0x52f60a55aac993330e8ebf878705bb8da97c849163bcdc0d3e243d84c5d885c2.
//
// Solidity: event TitleBurned(uint256 indexed tokenId, address indexed holder, bytes32 certificateHash)
func (_LandTitle *LandTitleFilterer) FilterTitleBurned(opts *bind.FilterOpts, tokenId []*big.Int, holder []common.Address) (*LandTitleTitleBurnedIterator, error) {

	var tokenIdRule []interface{}
	for _, tokenIdItem := range tokenId {
		tokenIdRule = append(tokenIdRule, tokenIdItem)
	}
	var holderRule []interface{}
	for _, holderItem := range holder {
		holderRule = append(holderRule, holderItem)
	}

	logs, sub, err := _LandTitle.contract.FilterLogs(opts, "TitleBurned", tokenIdRule, holderRule)
	if err != nil {
		return nil, err
	}
	return &LandTitleTitleBurnedIterator{contract: _LandTitle.contract, event: "TitleBurned", logs: logs, sub: sub}, nil
}

// WatchTitleBurned is a free log subscription operation binding the contract event 0x52f60a55aac993330e8ebf878705bb8da97c849163bcdc0d3e243d84c5d885c2.
//
// Solidity: event TitleBurned(uint256 indexed tokenId, address indexed holder, bytes32 certificateHash)
func (_LandTitle *LandTitleFilterer) WatchTitleBurned(opts *bind.WatchOpts, sink chan<- *LandTitleTitleBurned, tokenId []*big.Int, holder []common.Address) (event.Subscription, error) {

	var tokenIdRule []interface{}
	for _, tokenIdItem := range tokenId {
		tokenIdRule = append(tokenIdRule, tokenIdItem)
	}
	var holderRule []interface{}
	for _, holderItem := range holder {
		holderRule = append(holderRule, holderItem)
	}

	logs, sub, err := _LandTitle.contract.WatchLogs(opts, "TitleBurned", tokenIdRule, holderRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(LandTitleTitleBurned)
				if err := _LandTitle.contract.UnpackLog(event, "TitleBurned", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseTitleBurned is a log parse operation binding the contract event 0x52f60a55aac993330e8ebf878705bb8da97c849163bcdc0d3e243d84c5d885c2.
//
// Solidity: event TitleBurned(uint256 indexed tokenId, address indexed holder, bytes32 certificateHash)
func (_LandTitle *LandTitleFilterer) ParseTitleBurned(log types.Log) (*LandTitleTitleBurned, error) {
	event := new(LandTitleTitleBurned)
	if err := _LandTitle.contract.UnpackLog(event, "TitleBurned", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// LandTitleTitleMintedIterator is returned from FilterTitleMinted and is used to iterate over the raw logs and unpacked data for TitleMinted events raised by the LandTitle contract.
type LandTitleTitleMintedIterator struct {
	Event *LandTitleTitleMinted // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *LandTitleTitleMintedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(LandTitleTitleMinted)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(LandTitleTitleMinted)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *LandTitleTitleMintedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *LandTitleTitleMintedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// LandTitleTitleMinted represents a TitleMinted event raised by the LandTitle contract.
type LandTitleTitleMinted struct {
	TokenId         *big.Int
	Holder          common.Address
	CertificateHash [32]byte
	Raw             types.Log // Blockchain specific contextual infos
}

// FilterTitleMinted is a free log retrieval operation binding the contract event 0x545537ca9c32b298bf90e4659e5ce906efba52c076cd841b6d90167edecd4f8b.
//
// Solidity: event TitleMinted(uint256 indexed tokenId, address indexed holder, bytes32 certificateHash)
func (_LandTitle *LandTitleFilterer) FilterTitleMinted(opts *bind.FilterOpts, tokenId []*big.Int, holder []common.Address) (*LandTitleTitleMintedIterator, error) {

	var tokenIdRule []interface{}
	for _, tokenIdItem := range tokenId {
		tokenIdRule = append(tokenIdRule, tokenIdItem)
	}
	var holderRule []interface{}
	for _, holderItem := range holder {
		holderRule = append(holderRule, holderItem)
	}

	logs, sub, err := _LandTitle.contract.FilterLogs(opts, "TitleMinted", tokenIdRule, holderRule)
	if err != nil {
		return nil, err
	}
	return &LandTitleTitleMintedIterator{contract: _LandTitle.contract, event: "TitleMinted", logs: logs, sub: sub}, nil
}

// WatchTitleMinted is a free log subscription operation binding the contract event 0x545537ca9c32b298bf90e4659e5ce906efba52c076cd841b6d90167edecd4f8b.
//
// Solidity: event TitleMinted(uint256 indexed tokenId, address indexed holder, bytes32 certificateHash)
func (_LandTitle *LandTitleFilterer) WatchTitleMinted(opts *bind.WatchOpts, sink chan<- *LandTitleTitleMinted, tokenId []*big.Int, holder []common.Address) (event.Subscription, error) {

	var tokenIdRule []interface{}
	for _, tokenIdItem := range tokenId {
		tokenIdRule = append(tokenIdRule, tokenIdItem)
	}
	var holderRule []interface{}
	for _, holderItem := range holder {
		holderRule = append(holderRule, holderItem)
	}

	logs, sub, err := _LandTitle.contract.WatchLogs(opts, "TitleMinted", tokenIdRule, holderRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(LandTitleTitleMinted)
				if err := _LandTitle.contract.UnpackLog(event, "TitleMinted", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseTitleMinted is a log parse operation binding the contract event 0x545537ca9c32b298bf90e4659e5ce906efba52c076cd841b6d90167edecd4f8b.
//
// Solidity: event TitleMinted(uint256 indexed tokenId, address indexed holder, bytes32 certificateHash)
func (_LandTitle *LandTitleFilterer) ParseTitleMinted(log types.Log) (*LandTitleTitleMinted, error) {
	event := new(LandTitleTitleMinted)
	if err := _LandTitle.contract.UnpackLog(event, "TitleMinted", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// LandTitleTransferIterator is returned from FilterTransfer and is used to iterate over the raw logs and unpacked data for Transfer events raised by the LandTitle contract.
type LandTitleTransferIterator struct {
	Event *LandTitleTransfer // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *LandTitleTransferIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(LandTitleTransfer)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(LandTitleTransfer)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *LandTitleTransferIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *LandTitleTransferIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// LandTitleTransfer represents a Transfer event raised by the LandTitle contract.
type LandTitleTransfer struct {
	From    common.Address
	To      common.Address
	TokenId *big.Int
	Raw     types.Log // Blockchain specific contextual infos
}

// FilterTransfer is a free log retrieval operation binding the contract event 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)
func (_LandTitle *LandTitleFilterer) FilterTransfer(opts *bind.FilterOpts, from []common.Address, to []common.Address, tokenId []*big.Int) (*LandTitleTransferIterator, error) {

	var fromRule []interface{}
	for _, fromItem := range from {
		fromRule = append(fromRule, fromItem)
	}
	var toRule []interface{}
	for _, toItem := range to {
		toRule = append(toRule, toItem)
	}
	var tokenIdRule []interface{}
	for _, tokenIdItem := range tokenId {
		tokenIdRule = append(tokenIdRule, tokenIdItem)
	}

	logs, sub, err := _LandTitle.contract.FilterLogs(opts, "Transfer", fromRule, toRule, tokenIdRule)
	if err != nil {
		return nil, err
	}
	return &LandTitleTransferIterator{contract: _LandTitle.contract, event: "Transfer", logs: logs, sub: sub}, nil
}

// WatchTransfer is a free log subscription operation binding the contract event 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)
func (_LandTitle *LandTitleFilterer) WatchTransfer(opts *bind.WatchOpts, sink chan<- *LandTitleTransfer, from []common.Address, to []common.Address, tokenId []*big.Int) (event.Subscription, error) {

	var fromRule []interface{}
	for _, fromItem := range from {
		fromRule = append(fromRule, fromItem)
	}
	var toRule []interface{}
	for _, toItem := range to {
		toRule = append(toRule, toItem)
	}
	var tokenIdRule []interface{}
	for _, tokenIdItem := range tokenId {
		tokenIdRule = append(tokenIdRule, tokenIdItem)
	}

	logs, sub, err := _LandTitle.contract.WatchLogs(opts, "Transfer", fromRule, toRule, tokenIdRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(LandTitleTransfer)
				if err := _LandTitle.contract.UnpackLog(event, "Transfer", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseTransfer is a log parse operation binding the contract event 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)
func (_LandTitle *LandTitleFilterer) ParseTransfer(log types.Log) (*LandTitleTransfer, error) {
	event := new(LandTitleTransfer)
	if err := _LandTitle.contract.UnpackLog(event, "Transfer", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// LandTitleUnlockedIterator is returned from FilterUnlocked and is used to iterate over the raw logs and unpacked data for Unlocked events raised by the LandTitle contract.
type LandTitleUnlockedIterator struct {
	Event *LandTitleUnlocked // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *LandTitleUnlockedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(LandTitleUnlocked)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(LandTitleUnlocked)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *LandTitleUnlockedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *LandTitleUnlockedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// LandTitleUnlocked represents a Unlocked event raised by the LandTitle contract.
type LandTitleUnlocked struct {
	TokenId *big.Int
	Raw     types.Log // Blockchain specific contextual infos
}

// FilterUnlocked is a free log retrieval operation binding the contract event 0xf27b6ce5b2f5e68ddb2fd95a8a909d4ecf1daaac270935fff052feacb24f1842.
//
// Solidity: event Unlocked(uint256 tokenId)
func (_LandTitle *LandTitleFilterer) FilterUnlocked(opts *bind.FilterOpts) (*LandTitleUnlockedIterator, error) {

	logs, sub, err := _LandTitle.contract.FilterLogs(opts, "Unlocked")
	if err != nil {
		return nil, err
	}
	return &LandTitleUnlockedIterator{contract: _LandTitle.contract, event: "Unlocked", logs: logs, sub: sub}, nil
}

// WatchUnlocked is a free log subscription operation binding the contract event 0xf27b6ce5b2f5e68ddb2fd95a8a909d4ecf1daaac270935fff052feacb24f1842.
//
// Solidity: event Unlocked(uint256 tokenId)
func (_LandTitle *LandTitleFilterer) WatchUnlocked(opts *bind.WatchOpts, sink chan<- *LandTitleUnlocked) (event.Subscription, error) {

	logs, sub, err := _LandTitle.contract.WatchLogs(opts, "Unlocked")
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(LandTitleUnlocked)
				if err := _LandTitle.contract.UnpackLog(event, "Unlocked", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseUnlocked is a log parse operation binding the contract event 0xf27b6ce5b2f5e68ddb2fd95a8a909d4ecf1daaac270935fff052feacb24f1842.
//
// Solidity: event Unlocked(uint256 tokenId)
func (_LandTitle *LandTitleFilterer) ParseUnlocked(log types.Log) (*LandTitleUnlocked, error) {
	event := new(LandTitleUnlocked)
	if err := _LandTitle.contract.UnpackLog(event, "Unlocked", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}
