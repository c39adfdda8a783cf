import type { AllocationResponseDto, RebalanceObject } from '@service/contracts';
import type { RebalanceRecord } from './records.js';

export type RebalanceStatus = RebalanceObject['status'];

export function rebalanceObject(row: RebalanceRecord): RebalanceObject {
  return {
    id: row.id,
    requestId: row.requestId,
    status: row.status as RebalanceStatus,
    allocations: row.allocations as RebalanceObject['allocations'],
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

export function allocationResponse(row: RebalanceRecord): AllocationResponseDto {
  return {
    rebalanceId: row.id,
    requestId: row.requestId,
    status: row.status as RebalanceStatus,
    createdAt: row.createdAt.toISOString(),
    allocations: row.allocations as AllocationResponseDto['allocations'],
  };
}
