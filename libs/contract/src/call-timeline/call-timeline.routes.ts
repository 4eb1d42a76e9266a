import { z } from 'zod';
import { CallIdSchema } from '../calls/calls.schemas';
import { defineRoute } from '../route/route';
import { CallTimelineSchema } from './call-timeline.schemas';

export const callTimelineRoutes = {
  getCallTimeline: defineRoute({
    operationId: 'getCallTimeline',
    method: 'get',
    path: '/v1/calls/{callId}/timeline',
    summary: "A call's timeline: received, approval, start, attempts, retries, fallback, result.",
    description:
      'Built from what the database records: the gateway stores how many attempts each pickup made, not when each ran, so attempts and retries are placed at their pickup’s start.',
    tags: ['calls'],
    security: 'api_key',
    scopes: ['calls:execute'],
    params: z.strictObject({ callId: CallIdSchema }),
    responses: { 200: { description: 'The events, oldest first.', schema: CallTimelineSchema } },
    problems: ['not_found'],
  }),
};
