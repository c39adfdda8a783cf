-- CreateIndex
CREATE INDEX "deliveries_lease_until_registration_id_idx" ON "deliveries"("lease_until", "registration_id") WHERE (lease_until IS NOT NULL);
