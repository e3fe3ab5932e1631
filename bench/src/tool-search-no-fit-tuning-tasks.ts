/**
 * Requests none of the 18 captured servers (tool-lists/) can do: actions in the physical world,
 * on a phone or in apps no server reaches. The tuning set for the tool search's "nothing fits"
 * threshold (`toolSearch.minRelevance`), written by the search's engineer and looked at while
 * tuning; the blind no-right-tool tasks (`tool-search-blind-tasks.ts`) are a separate set. The web
 * search servers can look anything up, so these ask to *do* something, not to find something out.
 */
export const TOOL_SEARCH_NO_FIT_TUNING_TASKS: string[] = [
  "book a table for two at an Italian restaurant tonight",
  "send an SMS to my mom saying I'll be late",
  "play my workout playlist on Spotify",
  "turn off the living room lights",
  "transfer 50 dollars to Alice's bank account",
  "set an alarm for 6:30 tomorrow morning",
  "call the dentist and reschedule my appointment",
  "order a large pepperoni pizza for delivery",
  "print this document on the office printer",
  "adjust the thermostat to 21 degrees",
  "read this paragraph aloud in a Japanese voice",
  "record a voice memo",
  "post a photo to my Instagram story",
  "pay my electricity bill",
  "lock the front door",
  "schedule a Zoom meeting with the team for Friday at 3pm",
  "send a WhatsApp message to the family group",
  "buy two tickets for the concert on Saturday",
  "start the robot vacuum in the kitchen",
  "check my heart rate on my smartwatch",
  "compose a melody and export it as MIDI",
  "rent a car at the airport for next week",
  "mute my microphone in the current call",
  "charge my electric car to 80 percent",
];
