'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, TextArea } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { useTestCampaign } from '@/lib/client/campaign-queries';
import { MAX_TEST_EMAILS } from '@/lib/core/campaigns/schemas';

/** Step 4: the draft as it stands, to up to ten addresses, marked "[Test]"; the API's refusal shown as it says it. */
export function CampaignTestStep({
  accountId,
  campaignId,
  flush,
}: {
  accountId: string;
  campaignId: string;
  flush: () => Promise<boolean>;
}) {
  const [text, setText] = useState('');
  const test = useTestCampaign(accountId, campaignId);
  const emails = [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((email) => email.trim())
        .filter(Boolean),
    ),
  ];
  const send = async () => {
    // The test sends what the server holds: the latest typing must be saved first.
    if (!(await flush())) return;
    test.mutate(emails);
  };
  return (
    <div className="space-y-4">
      <Field
        label="Send a test to"
        htmlFor="campaign-test-emails"
        hint={`Up to ${MAX_TEST_EMAILS} addresses, separated by commas or new lines. An address that is a contact gets that contact's values.`}
      >
        <TextArea id="campaign-test-emails" rows={3} value={text} onChange={(event) => setText(event.target.value)} />
      </Field>
      <div className="flex justify-end">
        <Button
          onClick={() => void send()}
          isBusy={test.isPending}
          disabled={emails.length === 0 || emails.length > MAX_TEST_EMAILS}
        >
          Send test
        </Button>
      </div>
      {test.error ? (
        <Alert tone="error" title="The test was not sent">
          <span data-testid="test-send-error">{test.error.message}</span>
        </Alert>
      ) : null}
      {test.data ? (
        <Alert tone="success" title="Test sent">
          <span data-testid="test-send-result">
            Queued for {test.data.data.map((message) => message.recipient.email).join(', ')}, with “[Test]” before the
            subject. It is counted nowhere in the campaign.
          </span>
        </Alert>
      ) : null}
    </div>
  );
}
