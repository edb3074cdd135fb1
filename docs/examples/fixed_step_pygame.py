"""A pygame loop with a fixed 60 Hz step, interpolated drawing and an overload policy.

Run it: `python docs/examples/fixed_step_pygame.py` (keys 1-6 choose the overload policy, S
stalls the loop for half a second, Esc quits). It needs pygame-ce and `timestep_lab`, nothing
else of Timestep Lab. docs/scheduler-in-your-game.md walks through it.
"""

from __future__ import annotations

import time

import pygame

from timestep_lab import POLICIES, FixedStepScheduler, SchedulerSettings, TimeBooks, hz_to_step_ns

WIDTH, HEIGHT = 640, 360
GRAVITY = 900.0  # px/s^2


class Ball:
    """The world: one ball, stepped by whole fixed ticks. It keeps the state before the last
    tick too, so that a picture can be drawn between the two."""

    def __init__(self) -> None:
        self.x, self.y, self.vx, self.vy = 40.0, 40.0, 220.0, 0.0
        self.previous = (self.x, self.y)

    def step(self, dt: float) -> None:
        self.previous = (self.x, self.y)
        self.vy += GRAVITY * dt  # semi-implicit Euler: the velocity first, then the position
        self.x, self.y = self.x + self.vx * dt, self.y + self.vy * dt
        if self.y > HEIGHT - 10:
            self.y, self.vy = HEIGHT - 10, -abs(self.vy) * 0.9
        if not 10 <= self.x <= WIDTH - 10:
            self.vx = -self.vx

    def drawn_at(self, alpha: float) -> tuple[float, float]:
        """Where to draw: between the previous and the current state. Never fed back."""
        (x0, y0) = self.previous
        return x0 + (self.x - x0) * alpha, y0 + (self.y - y0) * alpha


def run(frames: int | None = None) -> TimeBooks:
    """Play until Esc (or for `frames` frames); return the books of every frame's plan."""
    pygame.init()
    screen = pygame.display.set_mode((WIDTH, HEIGHT))
    settings = SchedulerSettings(step_ns=hz_to_step_ns(60), policy="drop", max_steps=5)
    scheduler = FixedStepScheduler(settings)
    books = TimeBooks()  # every plan added up: the books balance, to the nanosecond
    ball = Ball()
    policies = list(POLICIES)
    pacer = pygame.time.Clock()
    last = time.perf_counter_ns()  # the loop is the one owner of the clock
    drawn = 0
    while frames is None or drawn < frames:
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (
                event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
            ):
                frames = drawn
            elif event.type == pygame.KEYDOWN and pygame.K_1 <= event.key <= pygame.K_6:
                policy = policies[event.key - pygame.K_1]
                scheduler.reconfigure(SchedulerSettings(step_ns=settings.step_ns, policy=policy))
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_s:
                time.sleep(0.5)  # a stall: the next frame brings half a second
        now = time.perf_counter_ns()
        plan = scheduler.advance(now - last)  # whole ns in; whole ticks and a remainder out
        last = now
        books.record(plan)
        for _ in range(plan.steps):  # the scheduler plans, the caller steps
            ball.step(plan.dt_seconds)
        screen.fill((16, 18, 24))
        x, y = ball.drawn_at(plan.alpha)  # alpha: the sub-step remainder over the step
        pygame.draw.circle(screen, (250, 200, 80), (round(x), round(y)), 10)
        dropped_ms = float(books.dropped_ns) / 1e6  # dropped time is reported, never hidden
        policy = scheduler.settings.policy
        pygame.display.set_caption(f"policy {policy} (keys 1-6): {dropped_ms:.0f} ms dropped")
        pygame.display.flip()
        pacer.tick(240)  # no faster than 240 frames a second: the step is 60 Hz whatever the rate
        drawn += 1
    pygame.quit()
    return books


if __name__ == "__main__":
    run()
