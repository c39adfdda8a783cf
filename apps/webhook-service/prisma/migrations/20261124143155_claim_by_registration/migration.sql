-- CreateIndex
CREATE INDEX "deliveries_registration_id_next_attempt_at_idx" ON "deliveries"("registration_id", "next_attempt_at") WHERE (next_attempt_at IS NOT NULL);
