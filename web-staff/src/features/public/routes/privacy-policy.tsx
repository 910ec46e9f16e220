import { formatLongDate } from "@gym/web/format";
import { Anchor, Paper, Stack, Text, Title, Typography } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { Link } from "react-router-dom";
import { PublicLayout } from "../components/PublicLayout";
import { PRIVACY_EMAIL, PRIVACY_POLICY_UPDATED } from "../contact-details";

/**
 * The privacy policy (Privacy Act 2020, New Zealand). Written for the two groups who use the
 * product: gym staff (the back office) and members (the join site).
 */
export function PrivacyPolicyRoute() {
  useDocumentTitle("Privacy policy · Gym back office");
  return (
    <PublicLayout>
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz={{ base: 28, sm: 36 }}>
            Privacy policy
          </Title>
          <Text c="dimmed" size="sm">
            Last updated {formatLongDate(PRIVACY_POLICY_UPDATED)}
          </Text>
        </Stack>
        <Paper withBorder p={{ base: "lg", sm: 40 }}>
          <Typography
            style={
              {
                "--mantine-h2-font-size": "var(--mantine-font-size-xl)",
                "--mantine-h2-line-height": "1.35",
              } as React.CSSProperties
            }
          >
            <p>
              This policy explains how we collect, use, store and share personal information when a gym
              organisation runs its business on our platform: its staff use the back office, and its members
              join, pay and visit through the join site and the gym's doors. We follow the{" "}
              <strong>Privacy Act 2020</strong> and its information privacy principles (IPPs).
            </p>

            <h2>Who is responsible for your information</h2>
            <p>
              <strong>If you are a member</strong>, your gym organisation decides what happens with your
              information; we hold and process it on its behalf to run the gym's memberships, payments and
              door access. Questions about your membership are best asked at your gym, but you can always
              contact us too and we will work with your gym to answer.
            </p>
            <p>
              <strong>If you are staff</strong> of a gym organisation, we are responsible for your account
              information and how we keep the platform secure.
            </p>

            <h2>What we collect</h2>
            <ul>
              <li>
                <strong>Staff accounts:</strong> name, email address, role and the gyms you work at, and a
                record of sign-ins (time, internet address and browser) to keep accounts safe.
              </li>
              <li>
                <strong>Members:</strong> name, email address, mobile number, date of birth, address,
                emergency contact, profile photo, membership and payment history, notes your gym records, and
                optional answers such as how you heard about the gym.
              </li>
              <li>
                <strong>Payments:</strong> for bank payments, the account name and number and payment statuses
                from Akahu, New Zealand's open-banking service. For card payments, Stripe holds your card; we
                never see or store the full card number, only its brand, last four digits and expiry.
              </li>
              <li>
                <strong>Visits:</strong> when a door that tracks visits unlocks for you (through Kisi), the
                gym, the time and whether entry succeeded.
              </li>
              <li>
                <strong>Technical:</strong> one essential cookie keeps you signed in. We use no advertising or
                tracking cookies.
              </li>
            </ul>

            <h2>How we collect it</h2>
            <p>
              Mostly from you, when you register, sign in or update your details. Some comes from your gym
              (for example when staff invite you or record a pay-in-full membership) and from the services
              that process payments and door access for your gym.
            </p>

            <h2>Why we use it</h2>
            <ul>
              <li>to run memberships: sign-up, prices, pauses, cancellations and terms;</li>
              <li>to take payments when they are due, retry failed ones and tell you about them;</li>
              <li>to let you in: door access for members whose membership is active;</li>
              <li>to confirm it is really you, with a code emailed at each staff sign-in;</li>
              <li>to send the notices we must send, such as advance notice of a price change;</li>
              <li>to keep the platform secure and working, and to meet our legal obligations.</li>
            </ul>
            <p>We do not sell personal information, and we do not use it for advertising.</p>

            <h2>Who we share it with</h2>
            <ul>
              <li>
                <strong>Your gym organisation and its staff</strong>, limited by role: each organisation sees
                only its own members and staff.
              </li>
              <li>
                <strong>Service providers</strong> who act for us under contract: Amazon Web Services (hosting
                and email), Stripe (card payments), Akahu (bank payments), Kisi (door access) and Branch
                (links into the gym's app).
              </li>
              <li>
                <strong>Others when the law requires it</strong>, or to prevent a serious threat to someone's
                life or health.
              </li>
            </ul>

            <h2>Information sent overseas</h2>
            <p>
              Our database and files are hosted by Amazon Web Services in Sydney, Australia. Stripe and Kisi
              may process information in the United States and elsewhere. Before sending information overseas
              we make sure it will be protected in ways comparable to the Privacy Act, as IPP 12 requires.
            </p>

            <h2>How we keep it safe</h2>
            <p>
              Information is encrypted in transit and at rest. Passwords are stored only as strong one-way
              hashes, staff sign-ins need an emailed code, sessions end after 12 hours without use, and
              sensitive settings such as payment credentials are encrypted separately. Access inside each gym
              organisation follows the person's role.
            </p>

            <h2>How long we keep it</h2>
            <p>
              We keep account and membership information while it is needed to provide the service to your
              gym. Payment records are kept for seven years, as New Zealand tax law requires. Sign-in codes
              and password links expire within minutes to days. When information is no longer needed we delete
              it or remove what identifies you.
            </p>

            <h2>Your rights</h2>
            <p>
              You can ask to see the personal information held about you and ask for it to be corrected (IPPs
              6 and 7). Members can update most details themselves or ask their gym. We answer requests within
              20 working days, and it costs nothing. If we do not correct something, you can ask us to attach
              your statement of the correction you wanted.
            </p>

            <h2>Privacy breaches</h2>
            <p>
              If a privacy breach is likely to cause anyone serious harm, we will tell the Privacy
              Commissioner and the people affected as soon as practicable, as Part 6 of the Privacy Act
              requires, and work with your gym to limit the harm.
            </p>

            <h2>Questions and complaints</h2>
            <p>
              Contact our Privacy Officer at <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a> or
              through our{" "}
              <Anchor component={Link} to="/contact-us">
                contact page
              </Anchor>
              . If you are not satisfied with our response, you can complain to the Office of the Privacy
              Commissioner at{" "}
              <a href="https://www.privacy.org.nz" target="_blank" rel="noreferrer">
                privacy.org.nz
              </a>{" "}
              or on 0800 803 909.
            </p>

            <h2>Changes to this policy</h2>
            <p>
              We will update this page when our practices change and show the date of the latest version at
              the top. If a change affects how we use information we already hold, we will tell your gym and,
              where it matters, you.
            </p>
          </Typography>
        </Paper>
      </Stack>
    </PublicLayout>
  );
}

export { PrivacyPolicyRoute as Component };
