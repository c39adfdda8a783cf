import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

/** Organizations enabled for MicroVaults. */
@Injectable()
export class OrganizationsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async isEnabled(orgId: string): Promise<boolean> {
    return (await this.prisma.organization.findUnique({ where: { orgId } })) !== null;
  }

  /** Enables the organization (once); resolves to when it was first enabled. */
  async enable(orgId: string): Promise<Date> {
    const organization = await this.prisma.organization.upsert({ where: { orgId }, create: { orgId }, update: {} });
    return organization.enabledAt;
  }
}
