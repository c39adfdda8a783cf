// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title VaultManager
/// @notice The onchain manager of one MicroVault: its target allocation across yield sources and
/// one pause bit per vault operation. Only the vault's operator (the MicroVault service's key)
/// may change either.
/// @dev Pause bits of `pauseFlags` (bit n set = operation n paused):
///   bit 0  subscriptions      deposits into the vault
///   bit 1  redemptions        withdrawals from the vault
///   bit 2  strategy_updates   setStrategy (reverts with "strategy updates paused" while set)
contract VaultManager {
    uint16 public constant TOTAL_BPS = 10000;
    uint8 public constant OPERATION_COUNT = 3;
    uint8 public constant STRATEGY_UPDATES = 2;

    address public immutable operator;
    uint256 public pauseFlags;

    bytes32[] private _sourceIds;
    uint16[] private _targetBps;
    uint16 private _idleTargetBps = TOTAL_BPS;

    event StrategyUpdated(bytes32[] sourceIds, uint16[] targetBps, uint16 idleTargetBps);
    event PauseChanged(uint8 indexed operation, bool paused, uint256 pauseFlags);

    constructor(address operator_) {
        require(operator_ != address(0), "operator is the zero address");
        operator = operator_;
    }

    modifier onlyOperator() {
        require(msg.sender == operator, "caller is not the operator");
        _;
    }

    function setStrategy(bytes32[] calldata sourceIds, uint16[] calldata targetBps, uint16 idleTargetBps)
        external
        onlyOperator
    {
        require(pauseFlags & (uint256(1) << STRATEGY_UPDATES) == 0, "strategy updates paused");
        require(sourceIds.length == targetBps.length, "sourceIds and targetBps lengths differ");
        uint256 total = idleTargetBps;
        for (uint256 i = 0; i < targetBps.length; i++) {
            total += targetBps[i];
        }
        require(total == TOTAL_BPS, "targets must total 10000 bps");
        _sourceIds = sourceIds;
        _targetBps = targetBps;
        _idleTargetBps = idleTargetBps;
        emit StrategyUpdated(sourceIds, targetBps, idleTargetBps);
    }

    function setPaused(uint8 operation, bool paused) external onlyOperator {
        require(operation < OPERATION_COUNT, "unknown operation");
        uint256 bit = uint256(1) << operation;
        uint256 flags = paused ? pauseFlags | bit : pauseFlags & ~bit;
        pauseFlags = flags;
        emit PauseChanged(operation, paused, flags);
    }

    function strategy()
        external
        view
        returns (bytes32[] memory sourceIds, uint16[] memory targetBps, uint16 idleTargetBps)
    {
        return (_sourceIds, _targetBps, _idleTargetBps);
    }
}
