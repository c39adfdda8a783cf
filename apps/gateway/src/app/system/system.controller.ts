import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { NoQueryDto, PingResponseDto } from '@service/contracts';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { Operation } from '../docs/operation.js';
import { ValidQuery } from '../http/validation.js';

export const PING_PATH = '/v2/system/ping';

@ApiTags('System')
@ApiBearerAuth()
@Controller('v2/system')
export class SystemController {
  @Get('ping')
  @Operation('ping', { summary: 'Reachability check' })
  @ApiOkResponse({ type: PingResponseDto })
  @ApiStandardErrors({ ping: true, statuses: [400] })
  ping(@ValidQuery(NoQueryDto) _query: NoQueryDto): PingResponseDto {
    return { message: 'pong' };
  }
}
