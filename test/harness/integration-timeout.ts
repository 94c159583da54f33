// Integration tests talk to real servers and bundle workflow code: give them a minute, not jest's 5 s.
jest.setTimeout(60_000);
