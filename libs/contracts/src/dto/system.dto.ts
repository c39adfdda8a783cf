import { ApiProperty } from '@nestjs/swagger';

export class PingResponseDto {
  @ApiProperty({ example: 'pong' })
  message!: string;
}

/** For routes that take no query parameters: any parameter is `unknown_parameters`. */
export class NoQueryDto {}
