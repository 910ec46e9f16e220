import type { AkahuAccount } from "@gym/core/contract/gym";
import { errorMessage } from "@gym/web/api";
import { useAction } from "@gym/web/forms";
import { FormError, PageLoader } from "@gym/web/ui";
import { Button, Paper, Radio, Stack, Text } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { useEffect, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { JoinLayout } from "../../../components/JoinLayout";
import {
  akahuExchange,
  akahuSyncAccounts,
  chooseBankAccount,
  refreshRegistration,
  useRegistration,
} from "../api/registration";
import { owedBefore } from "../components/payment-change";
import { goToBankConsent } from "../components/start-bank";

type Phase =
  | { kind: "start" }
  | { kind: "connecting" }
  | { kind: "pick"; accounts: AkahuAccount[] }
  | { kind: "failed"; message: string };

/**
 * `/connect-akahu`: where the bank consent returns (`?code=&state=`, or `?error=`). Exchanges the
 * code, reads the member's accounts, and the one they pick becomes their bank payment type.
 * Opened without a code (a renewed consent) it starts the consent.
 */
export function ConnectAkahuRoute() {
  useDocumentTitle("Connect your bank account · Join");
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { data: state } = useRegistration();
  const code = params.get("code");
  const consentState = params.get("state");
  const denied = params.get("error");
  // `?connected=1`: the code was exchanged on an earlier load (this page's reload or Back), so
  // the connection exists: read the accounts again rather than spending the used code.
  const resumed = params.get("connected") === "1";
  const [phase, setPhase] = useState<Phase>(() =>
    denied
      ? { kind: "failed", message: "The bank connection was cancelled. You can try again or pay by card." }
      : code || resumed
        ? { kind: "connecting" }
        : { kind: "start" },
  );
  const [account, setAccount] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const showError = (failure: unknown) => setError(errorMessage(failure));
  // To the bank's consent page again: busy until the browser has gone there.
  const toBank = useAction(goToBankConsent, { onError: showError, leavesPage: true });
  const choosing = useAction(
    async (id: string) => {
      const change = owedBefore(state);
      await chooseBankAccount(id);
      await refreshRegistration();
      navigate("/bank-account-connected", { state: change });
    },
    { onError: showError, leavesPage: true },
  );
  const busy = toBank.running || choosing.running;
  const exchanged = useRef(false);

  useEffect(() => {
    if (exchanged.current || denied || !((code && consentState) || resumed)) return;
    exchanged.current = true; // the code works once
    void (async () => {
      try {
        if (code && consentState) {
          try {
            await akahuExchange(code, consentState);
          } catch (failure) {
            // A code already spent (a reload raced the address change): a connection that reads is fine.
            await akahuSyncAccounts().catch(() => {
              throw failure;
            });
          }
          // The code is spent: a reload or Back from here resumes with the connection.
          setParams({ connected: "1" }, { replace: true });
        }
        const accounts = await akahuSyncAccounts();
        const usable = accounts.filter((a) => a.status === "ACTIVE" || a.status === "active" || !a.status);
        setPhase({ kind: "pick", accounts: usable.length ? usable : accounts });
        setAccount((usable[0] ?? accounts[0])?.id ?? null);
      } catch (failure) {
        setPhase(resumed && !code ? { kind: "start" } : { kind: "failed", message: errorMessage(failure) });
      }
    })();
  }, [code, consentState, resumed, denied, setParams]);

  const restart = () => void (busy || toBank.run());

  const save = () => {
    if (!account) {
      setError("Choose an account");
      return;
    }
    if (!busy) void choosing.run(account);
  };

  return (
    <JoinLayout
      gym={state?.gym}
      title="Connect your bank account"
      description="Your membership payments come from the account you choose."
    >
      <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
        <Stack gap="md">
          {error && <FormError title="Something went wrong">{error}</FormError>}
          {phase.kind === "connecting" && <PageLoader label="Connecting your bank" />}
          {phase.kind === "start" && (
            <>
              <Text>We use Akahu, New Zealand's open-banking service, to connect your bank securely.</Text>
              <Button size="lg" fullWidth onClick={restart} loading={busy}>
                Connect my bank
              </Button>
            </>
          )}
          {phase.kind === "failed" && (
            <>
              <FormError title="Your bank is not connected">{phase.message}</FormError>
              <Button size="lg" fullWidth onClick={restart} loading={busy}>
                Try again
              </Button>
              <Button
                size="lg"
                fullWidth
                variant="default"
                onClick={() => navigate("/choose-payment-method")}
              >
                Choose another way to pay
              </Button>
            </>
          )}
          {phase.kind === "pick" && (
            <>
              <Radio.Group label="Pay from" value={account} onChange={setAccount} withAsterisk>
                <Stack gap="sm" mt="xs">
                  {phase.accounts.map((a) => (
                    <Radio.Card key={a.id} value={a.id} p="md" radius="md" aria-label={a.name}>
                      <Stack gap={2}>
                        <Text fw={700}>{a.name}</Text>
                        <Text size="sm" c="gray.7">
                          {a.formatted_account ?? ""}
                        </Text>
                      </Stack>
                    </Radio.Card>
                  ))}
                </Stack>
              </Radio.Group>
              <Button size="lg" fullWidth onClick={save} loading={busy}>
                Use this account
              </Button>
            </>
          )}
        </Stack>
      </Paper>
    </JoinLayout>
  );
}

export { ConnectAkahuRoute as Component };
