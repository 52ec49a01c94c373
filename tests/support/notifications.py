"""A stand-in for the desktop's notification daemon on the test desktop's
session bus (the one in the environment): records every Notify call, so a
test can read what the person would have seen."""

from __future__ import annotations


class NotificationServer:
    """Records (summary, body) of every Notify call; `close` leaves the bus."""

    def __init__(self) -> None:
        import asyncio
        import threading

        self.received: list[tuple[str, str]] = []
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()
        assert self._ready.wait(10), "the notification server did not start"

    def _serve(self) -> None:
        from dbus_fast import NameFlag
        from dbus_fast.aio import MessageBus
        from dbus_fast.service import ServiceInterface, dbus_method

        received = self.received

        class Notifications(ServiceInterface):
            def __init__(self) -> None:
                super().__init__("org.freedesktop.Notifications")

            # dbus-fast reads string annotations as D-Bus type signatures, which are
            # not Python names ("s") or expressions ("as", "a{sv}"): hence F821 and F722.
            @dbus_method()
            def Notify(self, app: "s", replaces: "u", icon: "s", summary: "s", body: "s",  # noqa: F821
                       actions: "as", hints: "a{sv}", timeout: "i") -> "u":  # noqa: F821, F722
                received.append((summary, body))
                return len(received)

        async def main() -> None:
            self._bus = await MessageBus().connect()
            self._bus.export("/org/freedesktop/Notifications", Notifications())
            await self._bus.request_name("org.freedesktop.Notifications", NameFlag.DO_NOT_QUEUE)
            self._ready.set()
            while True:
                import asyncio
                await asyncio.sleep(0.1)

        self._loop.run_until_complete(main())

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._bus.disconnect)
