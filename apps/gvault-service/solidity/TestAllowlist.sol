// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Stand-in for Superstate's USTB allowlist on the local chain: the `isAllowed` read the service
/// answers from, and an owner-only `setAllowed` that emits the change event the service follows.
contract TestAllowlist {
    address public immutable owner;
    mapping(address => bool) private allowed;

    event AllowlistUpdated(address indexed account, bool allowed);

    constructor() {
        owner = msg.sender;
    }

    function isAllowed(address account) external view returns (bool) {
        return allowed[account];
    }

    function setAllowed(address account, bool value) external {
        require(msg.sender == owner, "only the owner sets permissions");
        // Only a real change is an event: followers publish each one to clients.
        if (allowed[account] == value) return;
        allowed[account] = value;
        emit AllowlistUpdated(account, value);
    }
}
