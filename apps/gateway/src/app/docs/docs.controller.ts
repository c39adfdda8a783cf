import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiExcludeController, type OpenAPIObject } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../http/public-route.js';

const ASSETS = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
]);

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>API reference</title>
<link rel="stylesheet" href="/v2/docs/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/v2/docs/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({ url: '/v2/openapi.json', dom_id: '#ui' });</script></body></html>`;

/** Holds the document built from the routes once the app is created. */
export class OpenApiDocument {
  document: OpenAPIObject | undefined;
}

/** The OpenAPI document and a reference page, served from local assets (no CDN). */
@ApiExcludeController()
@Controller('v2')
export class DocsController {
  constructor(@Inject(OpenApiDocument) private readonly openApi: OpenApiDocument) {}

  private readonly assetDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

  @Get('openapi.json')
  @Public()
  openapi(): OpenAPIObject | undefined {
    return this.openApi.document;
  }

  @Get('docs')
  @Public()
  page(@Res() reply: FastifyReply): void {
    void reply.type('text/html; charset=utf-8').send(PAGE);
  }

  @Get('docs/:asset')
  @Public()
  async asset(@Param('asset') asset: string, @Res() reply: FastifyReply): Promise<void> {
    const type = ASSETS.get(asset);
    if (!type) {
      void reply.status(404).send({ error: 'Not found', code: 'validation_error' });
      return;
    }
    void reply
      .type(type)
      .header('cache-control', 'public, max-age=86400')
      .send(await readFile(path.join(this.assetDir, asset)));
  }
}
