// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A USD stablecoin of 6 decimals anyone may mint: the asset of the test vault.
contract TestUsd {
    string public constant name = "Test USD";
    string public constant symbol = "TUSD";
    uint8 public constant decimals = 6;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function mint(address to, uint256 amount) external {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        allowance[from][msg.sender] -= amount;
        _move(from, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) private {
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}

/// The ERC-4626 surface the risk-service reader uses, over TestUsd: assets are idle in the vault or
/// deployed elsewhere (`deploy`, not withdrawable at once); `accrue` adds yield, raising the share price.
contract TestVault {
    TestUsd public immutable assetToken;
    uint8 public constant decimals = 6;
    uint256 public totalSupply;
    uint256 public deployed;
    mapping(address => uint256) public balanceOf;

    constructor(TestUsd asset_) {
        assetToken = asset_;
    }

    function asset() external view returns (address) {
        return address(assetToken);
    }

    function totalAssets() public view returns (uint256) {
        return assetToken.balanceOf(address(this)) + deployed;
    }

    function convertToShares(uint256 assets) public view returns (uint256) {
        return totalSupply == 0 ? assets : (assets * totalSupply) / totalAssets();
    }

    function convertToAssets(uint256 shares) public view returns (uint256) {
        return totalSupply == 0 ? shares : (shares * totalAssets()) / totalSupply;
    }

    function maxWithdraw(address owner) external view returns (uint256) {
        uint256 owned = convertToAssets(balanceOf[owner]);
        uint256 idle = assetToken.balanceOf(address(this));
        return owned < idle ? owned : idle;
    }

    function deposit(uint256 assets, address receiver) external returns (uint256 shares) {
        shares = convertToShares(assets);
        assetToken.transferFrom(msg.sender, address(this), assets);
        totalSupply += shares;
        balanceOf[receiver] += shares;
    }

    /// Moves idle assets out of reach (lent, staked): still counted, no longer withdrawable at once.
    function deploy(uint256 assets) external {
        assetToken.transfer(address(0xdead), assets);
        deployed += assets;
    }

    /// Yield: new assets in the vault, for the same shares.
    function accrue(uint256 assets) external {
        assetToken.mint(address(this), assets);
    }
}
