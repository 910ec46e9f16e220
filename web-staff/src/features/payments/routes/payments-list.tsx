import { isApiError, useListAddress } from "@gym/web/api";
import { administersGym, staffGymsOf, useAuth } from "@gym/web/auth";
import { ExportButton } from "@gym/web/exports";
import { CursorPager, PageHeader } from "@gym/web/ui";
import { Alert, Button, Container, Skeleton, Stack } from "@mantine/core";
import { useDocumentTitle, useMediaQuery } from "@mantine/hooks";
import { IconAlertCircle } from "@tabler/icons-react";
import { Link } from "react-router-dom";
import {
  type PaymentFilterValues,
  paymentExportBody,
  paymentSearch,
  usePayments,
  writeSearch,
} from "../api/payments";
import { PaymentFilters } from "../components/PaymentFilters";
import { PaymentCards, PaymentsTable } from "../components/PaymentsTable";

/**
 * /payments (payments.index): the organisation's payments newest first, filtered by status, type,
 * gym and due dates. Filters, the page's cursor and its number live in the address, so Back
 * returns to the previous page and a reload keeps the page.
 */
export function PaymentsListRoute() {
  useDocumentTitle("Payments");
  const { user } = useAuth();
  const phone = useMediaQuery("(max-width: 48em)");
  const { filters, cursor, page, go } = useListAddress(paymentSearch);
  const { data, error, isLoading, isValidating, mutate } = usePayments(filters, cursor);

  const onFilters = (next: PaymentFilterValues) => go(writeSearch(next));

  if (!user) return null;
  const fieldErrors = isApiError(error) && error.status === 422 ? error.errors : undefined;
  const payments = data?.data ?? [];
  const nextCursor = data?.meta.next_cursor ?? null;
  const staffGyms = staffGymsOf(user);
  const canExport = administersGym(user);

  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <PageHeader
          title="Payments"
          description="Direct debits, card payments and pay-in-full payments, newest first by due date."
          actions={
            <>
              {user?.is_organisation_admin && (
                <Button component={Link} to="/expected-payments-debugging" variant="subtle">
                  Expected payments
                </Button>
              )}
              {canExport && (
                <ExportButton path="/api/payments/export" body={paymentExportBody(filters)} noun="payments" />
              )}
            </>
          }
        />
        <PaymentFilters value={filters} gyms={staffGyms} errors={fieldErrors} onChange={onFilters} />
        {error && !fieldErrors && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load payments">
            {error.status === 422 || error.code === "validation_failed"
              ? "These filters are not valid."
              : error.message}
            <div>
              <Button mt="sm" variant="light" color="red" onClick={() => void mutate()}>
                Try again
              </Button>
            </div>
          </Alert>
        )}
        {isLoading && !data ? (
          <Skeleton h={320} radius="md" />
        ) : phone ? (
          <PaymentCards
            payments={payments}
            user={user}
            fetching={isValidating}
            onChanged={() => void mutate()}
          />
        ) : (
          <PaymentsTable
            payments={payments}
            user={user}
            fetching={isValidating}
            onChanged={() => void mutate()}
          />
        )}
        <CursorPager
          page={page}
          firstPage={writeSearch(filters)}
          next={nextCursor ? writeSearch(filters, nextCursor, page + 1) : null}
        />
      </Stack>
    </Container>
  );
}

export { PaymentsListRoute as Component };
