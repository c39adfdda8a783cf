-- CreateTable
CREATE TABLE "registrations" (
    "id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "family" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "description" JSONB,
    "secret_enc" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "registrations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "deliveries" (
    "id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "family" TEXT NOT NULL,
    "registration_id" UUID NOT NULL,
    "source_event_id" UUID,
    "event_type" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "lease_until" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "emissions" (
    "id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "attempt_number" INTEGER NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "response_status" INTEGER,
    "response_ms" INTEGER,
    "error_message" TEXT,

    CONSTRAINT "emissions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "registrations_org_id_family_created_at_id_idx" ON "registrations"("org_id", "family", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "deliveries_next_attempt_at_idx" ON "deliveries"("next_attempt_at");

-- CreateIndex
CREATE INDEX "deliveries_registration_id_created_at_id_idx" ON "deliveries"("registration_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "deliveries_org_id_family_created_at_id_idx" ON "deliveries"("org_id", "family", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "deliveries_registration_id_source_event_id_key" ON "deliveries"("registration_id", "source_event_id");

-- CreateIndex
CREATE UNIQUE INDEX "emissions_delivery_id_attempt_number_key" ON "emissions"("delivery_id", "attempt_number");

-- AddForeignKey
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_registration_id_fkey" FOREIGN KEY ("registration_id") REFERENCES "registrations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "emissions" ADD CONSTRAINT "emissions_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "deliveries"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
