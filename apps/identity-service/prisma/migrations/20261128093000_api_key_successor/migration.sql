-- A key is rolled once: the rolled key records its successor, and a roll takes only a key that
-- has none, is not revoked and has not expired (issue 41: repeated rolls of one key minted
-- several successors, and rolling an expired key minted one that never expired).
-- Keys rolled before this migration keep a null successor, so a key still in its grace period
-- can be rolled once more.

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "successor_id" UUID;
