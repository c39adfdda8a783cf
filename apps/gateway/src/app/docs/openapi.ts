import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI document of the app's routes: served at /v2/openapi.json and the source of the SDK's types. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  return SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Portfolio Wallet, gtoken and MicroVault API')
      .setVersion('2.0.0')
      .addBearerAuth({
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'API key or JWT',
        description: 'An organization API key (`service_sandbox_...` / `service_prod_...`) or a JWT of a trusted issuer.',
      })
      .build(),
  );
}
