/** How the simulator's admin clients ask the simulated coordinator: one request, answered through the event queue. */
import type { Respond } from '../common/requests';
import type { Simulation } from '../simulation';

/**
 * Sends one request to the simulated coordinator and runs the clock just far enough for its response
 * (responses travel through the event queue, after the configured latency).
 */
export function coordinatorRequest<T>(simulation: Simulation, send: (respond: Respond<T>) => void): T {
  let response: { value: T } | undefined;
  send((value) => {
    response = { value };
  });
  simulation.advance(simulation.coordinator.config.responseLatencyMs);
  if (!response) {
    throw new Error('The simulated coordinator did not answer');
  }
  return response.value;
}
