// The submit form: the wheel (or a program bot's zip) goes as the request's body, the token in its Authorization header
// (the server reads no body before it knows who sends it). The answer is shown as text.
(function () {
  "use strict";
  const form = document.getElementById("submit-form"), message = document.getElementById("message");
  function say(text, kind) {
    message.hidden = false;
    message.textContent = text;
    message.className = "message " + kind;
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = form.elements.wheel.files[0], token = form.elements.token.value.trim();
    if (!file || !token) { say("refused: choose a wheel or a zip and give your token", "refused"); return; }
    if (file.size > Number(form.dataset.max)) {
      say("refused: the file is " + (file.size / 1048576).toFixed(1) + " MiB, more than this ladder takes", "refused");
      return;
    }
    const button = form.querySelector("button");
    button.disabled = true;
    say("uploading and checking " + file.name + " ...", "waiting");
    try {
      const answer = await fetch("/submit", {method: "POST", body: file,
        headers: {"Authorization": "Bearer " + token, "Content-Type": "application/octet-stream"}});
      say((await answer.text()).trim(), answer.ok ? "admitted" : "refused");
    } catch (e) {
      say("the upload did not complete: " + e, "refused");
    } finally {
      button.disabled = false;
    }
  });
})();
