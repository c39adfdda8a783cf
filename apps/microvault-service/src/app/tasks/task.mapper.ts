import type { MicroVaultTaskDto, MicroVaultTaskKind, MicroVaultTaskStatus } from '@service/contracts';
import type { Task } from '../../generated/prisma/client.js';

export function toTaskDto(task: Task): MicroVaultTaskDto {
  return {
    id: task.id,
    kind: task.kind as MicroVaultTaskKind,
    status: task.status as MicroVaultTaskStatus,
    vaultId: task.vaultId,
    txHashes: task.txHash ? [task.txHash] : [],
    error: task.error,
    createdAt: task.createdAt.toISOString(),
    updatedAt: task.updatedAt.toISOString(),
  };
}
