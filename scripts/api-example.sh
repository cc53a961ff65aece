#!/usr/bin/env bash
# The API reference (/docs/api) as one script: upload a photo, stage it, follow the job, download
# the result, list jobs, read the balance. Needs curl, jq and openssl.
#   ROOMSTAGER_URL=http://localhost:3000 ROOMSTAGER_KEY=rs_live_... scripts/api-example.sh room.jpg [staged.jpg]
set -euo pipefail
: "${ROOMSTAGER_URL:?set ROOMSTAGER_URL}" "${ROOMSTAGER_KEY:?set ROOMSTAGER_KEY}"
PHOTO=${1:?usage: api-example.sh photo.jpg [out.jpg]}
OUT=${2:-staged.jpg}
AUTH="Authorization: Bearer $ROOMSTAGER_KEY"

IMAGE_ID=$(curl -sSf -X POST "$ROOMSTAGER_URL/api/v1/images" \
  -H "$AUTH" -H "Idempotency-Key: $(openssl rand -hex 16)" -F "file=@$PHOTO" | jq -r .id)
echo "uploaded image $IMAGE_ID"

JOB_ID=$(curl -sSf -X POST "$ROOMSTAGER_URL/api/v1/jobs" \
  -H "$AUTH" -H "Content-Type: application/json" \
  -H "Idempotency-Key: $(openssl rand -hex 16)" \
  -d "{\"imageId\": \"$IMAGE_ID\", \"style\": \"modern\", \"roomType\": \"bedroom\"}" | jq -r .id)
echo "started job $JOB_ID"

for _ in $(seq 1 120); do
  STATUS=$(curl -sSf "$ROOMSTAGER_URL/api/v1/jobs/$JOB_ID" -H "$AUTH" | jq -r .status)
  [ "$STATUS" = completed ] || [ "$STATUS" = failed ] && break
  sleep 2
done
echo "job $JOB_ID is $STATUS"
[ "$STATUS" = completed ] || { curl -sS "$ROOMSTAGER_URL/api/v1/jobs/$JOB_ID" -H "$AUTH" | jq -r .errorMessage; exit 1; }

STAGED_URL=$(curl -sSf "$ROOMSTAGER_URL/api/v1/jobs/$JOB_ID" -H "$AUTH" | jq -r .stagedImageUrl)
curl -sSf "$STAGED_URL" -H "$AUTH" -o "$OUT"
echo "downloaded $OUT"

echo "jobs listed: $(curl -sSf "$ROOMSTAGER_URL/api/v1/jobs?limit=50" -H "$AUTH" | jq '.jobs | length')"
echo "credits left: $(curl -sSf "$ROOMSTAGER_URL/api/v1/account" -H "$AUTH" | jq .credits)"
