import { PrismaServiceFor } from '@service/service-runtime';
import { PrismaClient } from '../generated/prisma/client.js';

export class PrismaService extends PrismaServiceFor(PrismaClient) {}
