import type { FastifyRequest } from 'fastify';
import type { WorkflowService } from '@quarry/core/service';
import type { BodyReadTurns } from './body-reads.js';
import type { MultipartLimits } from './multipart.js';

/** What every route module needs. */
export interface RouteContext {
  service: WorkflowService;
  /** Where multipart uploads are streamed before the service takes them over. */
  stagingDir: string;
  /** Size and count limits of an upload, and how long its body may stall. */
  uploadLimits: MultipartLimits;
  /** Turns for reading upload bodies, shared by every upload endpoint. */
  bodyReads: BodyReadTurns;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The workspace of the request's API key (set by the auth hook). */
    workspace: string;
  }
  interface FastifyContextConfig {
    /** Routes that need no API key (OpenAPI document, health check). */
    public?: boolean;
  }
}

/** The workspace of an authenticated request. */
export function workspaceOf(req: FastifyRequest): string {
  return req.workspace;
}

/** A path parameter. */
export function param(req: FastifyRequest, name: string): string {
  return (req.params as Record<string, string>)[name] ?? '';
}
