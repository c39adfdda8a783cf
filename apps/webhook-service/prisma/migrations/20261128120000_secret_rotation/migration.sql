-- Secret rotation with an overlap: the secret a rotation replaced, sealed like secret_enc, and
-- until when deliveries are signed with it as well. Nullable, no default: no table rewrite.
-- (No semicolons in comments: Prisma's engine splits a migration's statements on them.)

-- AlterTable
ALTER TABLE "registrations" ADD COLUMN     "previous_secret_enc" TEXT,
ADD COLUMN     "previous_secret_expires_at" TIMESTAMPTZ(3);
