/**
 * Loaded with `NODE_OPTIONS=--require <this file>` into every Node process the pulumi CLI starts for a test (the
 * program and the dynamic-provider process; see project-stack.ts): refuses non-loopback connections there too and
 * reports them to the file the test process reads after each test (egress-guard.ts).
 */
import { installEgressGuard, reportToLog } from "./egress-guard";

installEgressGuard(reportToLog);
