import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NoQueryDto, PingResponseDto } from '@service/contracts';
import { ApiStandardErrors } from '../docs/api-errors.js';
import { ValidQuery } from '../http/validation.js';

export const PING_PATH = '/v2/system/ping';

@ApiTags('System')
@ApiBearerAuth()
@Controller('v2/system')
export class SystemController {
  @Get('ping')
  @ApiOperation({ summary: 'Reachability check' })
  @ApiOkResponse({ type: PingResponseDto })
  @ApiStandardErrors({ ping: true, statuses: [400] })
  ping(@ValidQuery(NoQueryDto) _query: NoQueryDto): PingResponseDto {
    return { message: 'pong' };
  }
}
